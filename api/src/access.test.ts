import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorEnvelope } from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from './app';
import { createTestApp, sameDbApp, type TestApp } from './routes/auth/test-app';
import { OPEN_ROUTES } from './routes/open-routes';

/** Sample values for path parameters; any other parameter gets 1. */
const SAMPLE_PARAMS: Record<string, string> = { login_type: 'flightdeck' };

/** A concrete path for a route pattern: `:name` (with an optional `{regex}`) and `*` filled in. */
function samplePath(pattern: string): string {
  return pattern
    .replace(
      /:(\w+)(\{[^}]*\})?\??/g,
      // A parameter limited to a list of words (`{postgresql|mysql}`) takes the first word.
      (_, name: string, regex?: string) =>
        SAMPLE_PARAMS[name] ?? /^\{(\w+)[|}]/.exec(regex ?? '')?.[1] ?? '1',
    )
    .replace(/\*/g, 'sample');
}

let base: TestApp;
let app: ReturnType<typeof createApp>;
let consoleDir: string;

beforeAll(async () => {
  base = await createTestApp();
  // With a console folder, so its static routes are registered too.
  consoleDir = mkdtempSync(join(tmpdir(), 'fd-access-'));
  mkdirSync(join(consoleDir, 'assets'));
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Flightdeck</title>');
  app = sameDbApp(base, { consoleDir });
});
afterAll(async () => {
  await base?.drop();
  rmSync(consoleDir, { recursive: true, force: true });
});

/**
 * Every registered route (method and pattern). `ALL` entries are middleware (`use`) and the
 * not-found fallbacks, not calls of their own.
 */
function registeredRoutes(): { method: string; path: string; key: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string; key: string }[] = [];
  for (const r of app.routes) {
    if (r.method === 'ALL') continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path: r.path, key });
  }
  return out;
}

describe('access control', () => {
  it('lists only open routes that exist', () => {
    const keys = new Set(registeredRoutes().map((r) => r.key));
    expect(OPEN_ROUTES.filter((k) => !keys.has(k))).toEqual([]);
  });

  it('answers 401 in the envelope on every route but the open ones when called without a session', async () => {
    const routes = registeredRoutes().filter((r) => !OPEN_ROUTES.includes(r.key));
    expect(routes.length).toBeGreaterThan(3);
    const failures: string[] = [];
    for (const route of routes) {
      const url = samplePath(route.path);
      const init: RequestInit = { method: route.method };
      if (route.method !== 'GET' && route.method !== 'HEAD') {
        init.headers = { 'Content-Type': 'application/json' };
        init.body = '{}';
      }
      const res = await app.request(url, init);
      const text = await res.text();
      let parsed: ReturnType<typeof ErrorEnvelope.safeParse> | undefined;
      try {
        parsed = ErrorEnvelope.safeParse(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      if (res.status !== 401 || !parsed?.success || parsed.data.code !== 'unauthorized') {
        failures.push(`${route.key} (${route.method} ${url}) answered ${res.status}: ${text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('also refuses an unknown or revoked token', async () => {
    for (const route of registeredRoutes().filter((r) => !OPEN_ROUTES.includes(r.key))) {
      const res = await app.request(samplePath(route.path), {
        method: route.method,
        headers: { Authorization: 'Bearer not-a-session', 'Content-Type': 'application/json' },
        ...(route.method === 'GET' ? {} : { body: '{}' }),
      });
      expect(res.status, route.key).toBe(401);
    }
  });
});

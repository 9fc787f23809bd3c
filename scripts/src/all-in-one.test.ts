import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@flightdeck/collector/store';
import type { MetricBatch } from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startFlightdeck } from './all-in-one';
import { freePort } from './product-process';

const dir = mkdtempSync(join(tmpdir(), 'fd-all-in-one-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the embedded all-in-one product', () => {
  it('serves health and sign-in, monitors the local host, and writes every batch in flight before it stops', async () => {
    const port = await freePort();
    const env = {
      PORT: String(port),
      DATA_DIR: dir,
      AGENT_INTERVAL_S: '1',
      FLIGHTDECK_ADMIN_EMAIL: 'ops@example.com',
      FLIGHTDECK_ADMIN_PASSWORD: 'correct horse battery',
    };
    const running = await startFlightdeck(env, pino({ level: 'silent' }));
    expect(running.admin).toMatchObject({ created: true, email: 'ops@example.com' });
    expect(running.admin.password).toBeUndefined();

    const health = await fetch(`${running.url}/api/health`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as {
      status: string;
      data: { components: Record<string, { state: string }> };
    };
    expect(body.status).toBe('ok');
    for (const name of ['bus', 'metadata_db', 'metric_store', 'collector']) {
      expect(body.data.components[name]?.state, name).toBe('ok');
    }

    const signin = await fetch(`${running.url}/api/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com', password: 'correct horse battery' }),
    });
    expect(signin.status).toBe(200);
    expect(((await signin.json()) as { data: { token: string } }).data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The local agent's first batch reaches the store through the bus.
    const deadline = Date.now() + 10_000;
    let written = 0;
    while (Date.now() < deadline && written === 0) {
      const h = (await (await fetch(`${running.url}/api/health`)).json()) as {
        data: { components: { collector: { samples_written?: number } } };
      };
      written = h.data.components.collector.samples_written ?? 0;
      if (written === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(written).toBeGreaterThan(0);

    // A burst published right before stopping is written before stop() resolves.
    const base = Date.UTC(2026, 0, 1);
    const burst: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      const batch: MetricBatch = {
        v: 1,
        tenant: '1',
        host: 'burst-host',
        source: 'import',
        ts: base + i * 10_000,
        samples: [{ m: 'test.burst', v: i }],
      };
      burst.push(running.parts.bus.publishMetrics(batch));
    }
    await Promise.all(burst);
    await running.stop();

    const store = await createSqliteStore({ path: join(dir, 'metrics.db') });
    try {
      const chart = await store.query({
        series: [{ tenant: '1', host: 'burst-host', metric: 'test.burst' }],
        start: base / 1000,
        end: base / 1000 + 300 * 10,
        step: 10,
        agg: 'count',
      });
      const counted = (chart.y_values['test.burst'] ?? []).reduce<number>((sum, v) => sum + (v ?? 0), 0);
      expect(counted).toBe(300);
    } finally {
      await store.close();
    }
  });
});

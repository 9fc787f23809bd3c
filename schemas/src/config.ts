import { z } from 'zod';

/** Raised at start-up when the environment does not fit a process's config schema. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** `scheme://user:secret@host` -> `scheme://user:***@host`: start-up errors never print a password. */
export function redactUrlPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@/\s]*@/i, '$1:***@');
}

/**
 * Parses environment variables with a zod object whose keys are the variable names. Every problem
 * is listed, each naming the variable, what it expected and what it got; the result is frozen.
 */
export function parseEnv<T extends z.ZodObject>(
  schema: T,
  env: Record<string, string | undefined>,
): Readonly<z.infer<T>> {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    picked[key] = v === '' ? undefined : v;
  }
  const result = schema.safeParse(picked);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '(environment)');
      const got = picked[name];
      const shown =
        got === undefined
          ? 'nothing'
          : /PASSWORD|SECRET|KEY|TOKEN/.test(name)
            ? '(hidden)'
            : JSON.stringify(redactUrlPassword(got));
      return `${name}: ${issue.message} (got ${shown})`;
    });
    throw new ConfigError(problems);
  }
  return Object.freeze(result.data);
}

/** Helpers for common variable kinds, with messages that say what is expected. */
export const env = {
  port: (fallback: number) =>
    z.coerce
      .number({ error: 'expected a TCP port number' })
      .int('expected a whole number')
      .min(1, 'expected a port from 1 to 65535')
      .max(65535, 'expected a port from 1 to 65535')
      .default(fallback),
  int: (fallback: number, min = 0) =>
    z.coerce
      .number({ error: 'expected a number' })
      .int('expected a whole number')
      .min(min, `expected at least ${min}`)
      .default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['1', '0', 'true', 'false', 'yes', 'no'], { error: 'expected true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === '1' || v === 'true' || v === 'yes'),
  url: (protocols: string[]) =>
    z.string().refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol.replace(':', ''));
        } catch {
          return false;
        }
      },
      `expected a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    ),
  logLevel: () =>
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'expected one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
};

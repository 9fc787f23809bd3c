import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, parseEnv, redactUrlPassword } from './config';

describe('parseEnv', () => {
  const schema = z.object({
    PORT: env.port(8080),
    SMTP_URL: env.url(['smtp']).optional(),
    API_TOKEN: z.string().min(40),
  });

  it('lists every problem, each naming the variable and what it expected', () => {
    try {
      parseEnv(schema, { PORT: '70000', SMTP_URL: 'http://x', API_TOKEN: 'short' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const { problems } = err as ConfigError;
      expect(problems).toHaveLength(3);
      expect(problems[0]).toMatch(/^PORT: expected a port from 1 to 65535 \(got "70000"\)$/);
      expect(problems[1]).toMatch(/^SMTP_URL: expected a URL starting with smtp:\/\//);
      expect(problems[2]).toMatch(/^API_TOKEN: .*\(got \(hidden\)\)$/);
    }
  });

  it('never prints the password inside a URL', () => {
    expect(() =>
      parseEnv(schema, { SMTP_URL: 'ftp://mailer:s3cret@mail.example.com', API_TOKEN: 'x'.repeat(40) }),
    ).toThrow(/got "ftp:\/\/mailer:\*\*\*@mail\.example\.com"/);
    expect(redactUrlPassword('postgres://fd:pw@db:5432/fd')).toBe('postgres://fd:***@db:5432/fd');
    expect(redactUrlPassword('/var/lib/flightdeck.db')).toBe('/var/lib/flightdeck.db');
  });

  it('treats an empty variable as unset and applies defaults; the result is frozen', () => {
    const config = parseEnv(schema, { PORT: '', API_TOKEN: 'x'.repeat(40) });
    expect(config.PORT).toBe(8080);
    expect(Object.isFrozen(config)).toBe(true);
  });
});

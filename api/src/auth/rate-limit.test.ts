import { describe, expect, it } from 'vitest';
import { createLoginLimiter } from './rate-limit';

describe('createLoginLimiter', () => {
  it('blocks a key after its failures in the window and lets it go when the window has passed', () => {
    const limiter = createLoginLimiter({ maxFailures: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) limiter.fail('a', 1_000 + i);
    expect(limiter.blocked('a', 2_000)).toBe(true);
    expect(limiter.blocked('b', 2_000)).toBe(false);
    expect(limiter.blocked('a', 61_001)).toBe(false);
  });

  it('forgets a key on reset (a successful sign-in)', () => {
    const limiter = createLoginLimiter({ maxFailures: 1 });
    limiter.fail('a');
    expect(limiter.blocked('a')).toBe(true);
    limiter.reset('a');
    expect(limiter.blocked('a')).toBe(false);
  });
});

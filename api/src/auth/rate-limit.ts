/**
 * Counts failed sign-ins per key (e-mail and client address) in a sliding window kept in memory.
 * One process holds the counts; behind several api processes each limits on its own, which still
 * bounds guessing.
 */
export interface LoginLimiter {
  /** True when the key has used up its failures in the window. */
  blocked(key: string, nowMs?: number): boolean;
  fail(key: string, nowMs?: number): void;
  reset(key: string): void;
}

export function createLoginLimiter({ maxFailures = 10, windowMs = 60_000 } = {}): LoginLimiter {
  const failures = new Map<string, number[]>();
  const recent = (key: string, nowMs: number) => {
    const list = (failures.get(key) ?? []).filter((t) => nowMs - t < windowMs);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  return {
    blocked: (key, nowMs = Date.now()) => recent(key, nowMs).length >= maxFailures,
    fail(key, nowMs = Date.now()) {
      const list = recent(key, nowMs);
      list.push(nowMs);
      failures.set(key, list);
      // Keep memory bounded under a spray of distinct keys.
      if (failures.size > 10_000) {
        for (const k of failures.keys()) {
          recent(k, nowMs);
          if (failures.size <= 5_000) break;
        }
      }
    },
    reset: (key) => void failures.delete(key),
  };
}

import { describe, expect, it } from 'vitest';
import { CHUNK_RELOAD_MIN_INTERVAL_MS, shouldReloadForChunk } from './chunk-reload';

describe('shouldReloadForChunk', () => {
  it('reloads the first time and again only after a minute', () => {
    expect(shouldReloadForChunk(undefined, 1_000)).toBe(true);
    expect(shouldReloadForChunk(1_000, 1_000 + CHUNK_RELOAD_MIN_INTERVAL_MS - 1)).toBe(false);
    expect(shouldReloadForChunk(1_000, 1_000 + CHUNK_RELOAD_MIN_INTERVAL_MS)).toBe(true);
  });
});

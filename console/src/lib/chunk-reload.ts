/** Spec 4/9: a page whose code chunk fails to load reloads the browser page, at most once a minute. */
export const CHUNK_RELOAD_MIN_INTERVAL_MS = 60_000;
const STORAGE_KEY = 'flightdeck.chunk-reload-at';

export function shouldReloadForChunk(lastReloadAt: number | undefined, now: number): boolean {
  return lastReloadAt === undefined || now - lastReloadAt >= CHUNK_RELOAD_MIN_INTERVAL_MS;
}

/** Listens for Vite's preload failures (a new deployment removed the old chunks) and reloads. */
export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const stored = Number(sessionStorage.getItem(STORAGE_KEY));
    const now = Date.now();
    if (!shouldReloadForChunk(Number.isFinite(stored) && stored > 0 ? stored : undefined, now)) return;
    event.preventDefault();
    sessionStorage.setItem(STORAGE_KEY, String(now));
    window.location.reload();
  });
}

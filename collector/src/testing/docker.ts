import { getContainerRuntimeClient } from 'testcontainers';

/**
 * Why a testcontainers suite cannot run here, or null when a Docker engine answers within 5 s.
 * A suite that cannot run prints `<suite> skipped: no Docker engine (<why>)` and is reported as
 * skipped: `(noDocker ? describe.skip : describe)(...)`.
 */
export async function noDockerEngine(suite: string): Promise<string | null> {
  const why = await Promise.race([
    getContainerRuntimeClient().then(
      () => null,
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 5 s'), 5_000).unref()),
  ]);
  if (why) console.warn(`${suite} skipped: no Docker engine (${why})`);
  return why;
}

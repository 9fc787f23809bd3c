import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of the stand-alone agent, which wakes every few seconds to read /proc and publish a
 * batch of a few hundred samples: memory matters more than peak speed. Applied from inside the
 * process because the product launches the agent in several ways (systemd and the Windows scheduled
 * task run the single executable, whose command line goes to the agent, not to Node; the container
 * image and the npm bin run the bundle with `node`), and all of them must get the same footprint
 * without each launcher carrying `NODE_OPTIONS` (which a Node 20 single executable does honour).
 *
 * Only flags that V8 reads while running, not once at start-up, can be set this way (e.g.
 * `--max-semi-space-size` has no effect from here, and turning off concurrent or parallel garbage
 * collection at run time crashes V8); these four were each checked to take effect:
 * - `--semi-space-growth-factor=1`: the young generation keeps its initial 1 MB semi-spaces instead
 *   of doubling up to 8 MB, so per-run garbage no longer builds to ~8 MB between scavenges.
 * - `--no-opt`, `--no-sparkplug`: no optimizing or baseline compiler. The agent's JavaScript runs for
 *   a few milliseconds per interval; compiling it costs more memory (and the compilers' own pages of
 *   the node binary) than the speed it would buy.
 * - `--optimize-for-size`: V8 grows the old generation more cautiously and collects it sooner.
 */
export const AGENT_V8_FLAGS: readonly string[] = [
  '--semi-space-growth-factor=1',
  '--no-opt',
  '--no-sparkplug',
  '--optimize-for-size',
];

/**
 * Applies {@link AGENT_V8_FLAGS} to this process. Call it before loading the rest of the agent:
 * the young generation grows while modules load, and what is compiled before stays compiled.
 */
export function tuneHeapForAgent(): void {
  for (const flag of AGENT_V8_FLAGS) setFlagsFromString(flag);
}

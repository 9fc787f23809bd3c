#!/usr/bin/env node
import { tuneHeapForAgent } from './heap';

/**
 * The `flightdeck-agent` command (bundled to dist/agent.js, and into the single-executable
 * packages). No top-level await: the packages run it as CommonJS.
 *
 * The V8 settings go first and the commands are loaded after them, with `import()`: the rest of the
 * agent (zod, pino, the NATS client) must load under them, and a static import would load it first.
 */
tuneHeapForAgent();
const argv = process.argv.slice(2);
const stop = new AbortController();
// `run` stops cleanly on a signal; the other commands keep Node's default (exit at once).
if (argv[0] === 'run') {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
}

import('./commands')
  .then(({ runCli }) => runCli(argv, { stop: stop.signal }))
  .then(
    (code) => {
      process.exitCode = code;
      // Idle keep-alive sockets of fetch would hold the process a few seconds more.
      setTimeout(() => process.exit(code), 100).unref();
    },
    (err: unknown) => {
      process.stderr.write(
        `flightdeck-agent: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );

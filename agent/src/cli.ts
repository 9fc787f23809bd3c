#!/usr/bin/env node
import { runCli } from './commands';

/**
 * The `flightdeck-agent` command (bundled to dist/agent.js, and into the single-executable
 * packages). No top-level await: the packages run it as CommonJS.
 */
const argv = process.argv.slice(2);
const stop = new AbortController();
// `run` stops cleanly on a signal; the other commands keep Node's default (exit at once).
if (argv[0] === 'run') {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
}

runCli(argv, { stop: stop.signal }).then(
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

import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Benchmark } from './harness';

/**
 * `npm run bench [-- PREFIX]`: runs every `*.bench.ts` beside this file whose figures match PREFIX
 * and prints one JSON line per figure: {"name","value","unit"}, plus "target" when the figure has
 * one and "reason" when it could not be measured. A benchmark's comparison figures come with it.
 */
const prefix = process.argv[2] ?? '';
const dir = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
let printed = 0;
for (const file of files) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { benchmark: Benchmark };
  const comparisons = mod.benchmark.comparisons ?? [];
  if (![...mod.benchmark.figures, ...comparisons].some((f) => f.startsWith(prefix))) continue;
  for (const figure of await mod.benchmark.run()) {
    if (!figure.name.startsWith(prefix) && !comparisons.includes(figure.name)) continue;
    process.stdout.write(`${JSON.stringify(figure)}\n`);
    printed++;
  }
}
if (printed === 0) {
  console.error(`no benchmark figure starts with "${prefix}"`);
  process.exitCode = 1;
}

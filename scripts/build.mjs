// Builds what the processes run: each entry bundled by esbuild into dist/ (workspace sources
// inlined, npm packages left external), and the console by Vite into console/dist.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entries = {
  start: 'scripts/src/start.ts',
  api: 'api/src/main.ts',
  collector: 'collector/src/main.ts',
  agent: 'agent/src/cli.ts',
};

/** Keeps npm packages external; workspace packages (@flightdeck/*) and relative imports are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@flightdeck/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const only = process.argv.slice(2);
const selected = Object.entries(entries).filter(([name]) => only.length === 0 || only.includes(name));
const options = {
  absWorkingDir: root,
  outdir: join(root, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages],
};
const [agent, others] = [selected.filter(([n]) => n === 'agent'), selected.filter(([n]) => n !== 'agent')];
if (others.length > 0) await build({ ...options, entryPoints: Object.fromEntries(others) });
// The agent's entry sets V8 flags, then import()s the rest: split there, or the npm packages the
// rest imports would be hoisted into the entry and load before the flags (agent/src/heap.ts).
if (agent.length > 0) {
  rmSync(join(root, 'dist/agent-chunks'), { recursive: true, force: true });
  await build({
    ...options,
    entryPoints: Object.fromEntries(agent),
    splitting: true,
    chunkNames: 'agent-chunks/[name]-[hash]',
  });
}
if (only.length === 0 || only.includes('console')) {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: join(root, 'console'),
      stdio: 'inherit',
    },
  );
}

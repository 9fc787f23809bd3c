// Builds what the processes run: each entry bundled by esbuild into dist/ (workspace sources
// inlined, npm packages left external), and the console by Vite into console/dist.
import { execFileSync } from 'node:child_process';
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
await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(selected.map(([name, file]) => [name, file])),
  outdir: join(root, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages],
});
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

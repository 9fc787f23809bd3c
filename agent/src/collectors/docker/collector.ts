import { accessSync, constants, statSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Collector, SampleLike } from '../contract';
import { errorMessage, round } from '../linux/proc';
import { DOCKER_API_VERSION, defaultDockerSocket, EngineError, engineGet, mapBounded } from './engine';
import {
  type ContainerDetails,
  type ContainerSummary,
  cpuPercent,
  DOCKER_STATES,
  parseContainerList,
  parseInspect,
  parseStats,
  type StatsReading,
} from './parse';

export interface DockerCollectorOptions {
  /** The engine's unix socket (`/var/run/docker.sock`) or, on Windows, named pipe (`//./pipe/docker_engine`). */
  socketPath: string;
  /** Default {@link DOCKER_API_VERSION}. */
  apiVersion?: string;
  /** How long one Engine API call may take (default 2 s). */
  requestTimeoutMs?: number;
  /** Containers asked about at once (default 4; each may have a stats and an inspect call in flight). */
  concurrency?: number;
}

/** A container's counters at its last run, to turn them into rates. */
interface Baseline {
  readAt: number | undefined;
  now: number;
  cpuTotal: number | undefined;
  systemCpu: number | undefined;
  netRx: number | undefined;
  netTx: number | undefined;
}

/**
 * Containers of the local Docker Engine through its API socket (DESIGN section 1): per run one
 * `/containers/json?all=1`, then for each running container a one-shot `/stats`, a few at a time,
 * each with its own time-out. Samples are labelled `{container, image}`:
 *
 * - `container.running` (1/0) for every container and `docker.containers{state}` counts;
 * - `container.cpu_pct`, `container.mem_bytes` and `container.mem_limit_bytes` (only for a container
 *   with a memory limit; without one the engine reports the host's memory) as `docker stats` shows them;
 * - `container.net_rx_bytes_rate` / `container.net_tx_bytes_rate` from the counters of two runs;
 * - `container.restarts`, from `/containers/{id}/json`, which is asked only when the container is new
 *   or its list status changed (a restart always changes it: `Up 3 days` becomes `Up 2 seconds`).
 *
 * An engine that does not answer is logged as a warning and the run returns nothing; a container
 * that vanished between the list and its stats (404) is simply left out of this run.
 */
export function dockerCollector(options: DockerCollectorOptions): Collector {
  const { socketPath } = options;
  const timeoutMs = options.requestTimeoutMs ?? 2000;
  const concurrency = options.concurrency ?? 4;
  const apiVersion = options.apiVersion ?? DOCKER_API_VERSION;
  const get = (path: string) => engineGet({ socketPath, path, timeoutMs, apiVersion });
  let baselines = new Map<string, Baseline>();
  const details = new Map<string, { key: string; details: ContainerDetails }>();

  return {
    name: 'docker',
    async collect(ctx) {
      let list: unknown;
      try {
        list = await get('/containers/json?all=1');
      } catch (err) {
        ctx.logger.warn(
          { socket: socketPath, err: errorMessage(err) },
          `the Docker Engine at ${socketPath} did not list its containers`,
        );
        return [];
      }
      const { containers, problems } = parseContainerList(list);
      if (problems.length > 0) {
        ctx.logger.warn(
          { socket: socketPath, count: problems.length, first: problems[0] },
          `${problems.length} container(s) of the Docker Engine at ${socketPath} not understood`,
        );
      }

      const samples: SampleLike[] = [];
      const counts = new Map<string, number>(DOCKER_STATES.map((s) => [s, 0]));
      for (const c of containers) counts.set(c.state, (counts.get(c.state) ?? 0) + 1);
      for (const [state, n] of counts) samples.push({ m: 'docker.containers', l: { state }, v: n });

      const listed = new Set(containers.map((c) => c.id));
      for (const id of details.keys()) if (!listed.has(id)) details.delete(id);
      const nextBaselines = new Map<string, Baseline>();

      const perContainer = await mapBounded(containers, concurrency, async (c) => {
        const [info, reading] = await Promise.all([
          detailsOf(c, ctx.logger),
          c.state === 'running' ? statsOf(c, ctx.logger) : undefined,
        ]);
        return containerSamples(c, info, reading, ctx.now, nextBaselines);
      });
      baselines = nextBaselines;
      for (const list of perContainer) samples.push(...list);
      return samples;
    },
  };

  async function detailsOf(c: ContainerSummary, logger: Logger): Promise<ContainerDetails | undefined> {
    const key = `${c.state}|${c.status}`;
    const known = details.get(c.id);
    if (known?.key === key) return known.details;
    try {
      const info = parseInspect(await get(`/containers/${encodeURIComponent(c.id)}/json`));
      details.set(c.id, { key, details: info });
      return info;
    } catch (err) {
      logCallFailure(logger, c, 'inspect', err);
      return known?.details;
    }
  }

  async function statsOf(c: ContainerSummary, logger: Logger): Promise<StatsReading | undefined> {
    try {
      const body = await get(`/containers/${encodeURIComponent(c.id)}/stats?stream=false&one-shot=true`);
      const reading = parseStats(body);
      if (!reading) {
        logger.warn({ socket: socketPath, container: c.name }, `stats of container ${c.name} not understood`);
      }
      return reading;
    } catch (err) {
      logCallFailure(logger, c, 'stats', err);
      return undefined;
    }
  }

  function logCallFailure(logger: Logger, c: ContainerSummary, what: string, err: unknown) {
    // Removed between the list and this call: nothing to report, the next list will not hold it.
    if (err instanceof EngineError && err.status === 404) {
      logger.debug({ container: c.name }, `container ${c.name} is gone; no ${what} this run`);
      return;
    }
    logger.warn(
      { socket: socketPath, container: c.name, err: errorMessage(err) },
      `no ${what} for container ${c.name} from the Docker Engine at ${socketPath}`,
    );
  }

  function containerSamples(
    c: ContainerSummary,
    info: ContainerDetails | undefined,
    reading: StatsReading | undefined,
    now: number,
    nextBaselines: Map<string, Baseline>,
  ): SampleLike[] {
    const l = { container: c.name, image: c.image };
    const out: SampleLike[] = [{ m: 'container.running', l, v: c.state === 'running' ? 1 : 0 }];
    if (info?.restarts !== undefined) out.push({ m: 'container.restarts', l, v: info.restarts });
    const prev = baselines.get(c.id);
    if (!reading) {
      // A stats call that failed keeps the earlier baseline, so the next run measures over both intervals.
      if (prev && c.state === 'running') nextBaselines.set(c.id, prev);
      return out;
    }

    // An answer without one-shot carries its own earlier reading; a one-shot one is compared with ours.
    const cpu = cpuPercent(reading.pre ?? prev ?? {}, reading);
    if (cpu !== undefined) out.push({ m: 'container.cpu_pct', l, v: cpu });
    if (reading.memBytes !== undefined) out.push({ m: 'container.mem_bytes', l, v: reading.memBytes });
    if (reading.memLimit !== undefined && (info?.memoryLimit ?? 0) > 0) {
      out.push({ m: 'container.mem_limit_bytes', l, v: reading.memLimit });
    }
    if (prev) out.push(...networkRates(l, prev, reading, now));
    nextBaselines.set(c.id, {
      readAt: reading.readAt,
      now,
      cpuTotal: reading.cpuTotal,
      systemCpu: reading.systemCpu,
      netRx: reading.netRx,
      netTx: reading.netTx,
    });
    return out;
  }
}

/** Bytes per second between two readings; nothing when a counter went backwards (the container restarted). */
function networkRates(
  l: Record<string, string>,
  prev: Baseline,
  cur: StatsReading,
  now: number,
): SampleLike[] {
  const ms =
    prev.readAt !== undefined && cur.readAt !== undefined ? cur.readAt - prev.readAt : now - prev.now;
  if (ms <= 0) return [];
  const out: SampleLike[] = [];
  const pairs = [
    ['container.net_rx_bytes_rate', prev.netRx, cur.netRx],
    ['container.net_tx_bytes_rate', prev.netTx, cur.netTx],
  ] as const;
  for (const [m, before, after] of pairs) {
    if (before === undefined || after === undefined || after < before) continue;
    out.push({ m, l, v: round(((after - before) * 1000) / ms, 3) });
  }
  return out;
}

export interface DockerDetectionOptions {
  /** Default {@link defaultDockerSocket} of `platform`; `false` turns container metrics off. */
  socketPath?: string | false;
  platform?: NodeJS.Platform;
  logger?: Logger;
  /** Passed on to the collector (time-out, concurrency). */
  collector?: Omit<DockerCollectorOptions, 'socketPath'>;
}

/**
 * The Docker collector when this host has a Docker Engine socket the agent may open, else undefined:
 * no socket is logged once at info (most hosts have no Docker), a socket the agent may not open
 * (not in the `docker` group) once as a warning. Called once at start-up.
 */
export function detectDockerCollector(options: DockerDetectionOptions = {}): Collector | undefined {
  if (options.socketPath === false) return undefined;
  const platform = options.platform ?? process.platform;
  const socketPath = options.socketPath ?? defaultDockerSocket(platform);
  const { logger } = options;
  try {
    const st = statSync(socketPath);
    if (platform !== 'win32' && !st.isSocket()) {
      logger?.warn({ socket: socketPath }, `${socketPath} is not a socket; no container metrics`);
      return undefined;
    }
  } catch (err) {
    // On Windows a named pipe that exists may refuse a stat (busy); only "not found" means no engine.
    if (platform !== 'win32' || (err as NodeJS.ErrnoException).code === 'ENOENT') {
      logger?.info({ socket: socketPath }, `no Docker Engine socket at ${socketPath}; no container metrics`);
      return undefined;
    }
  }
  if (platform !== 'win32') {
    try {
      accessSync(socketPath, constants.R_OK | constants.W_OK);
    } catch (err) {
      logger?.warn(
        { socket: socketPath, err: errorMessage(err) },
        `cannot open the Docker Engine socket ${socketPath} (is the agent's user in the docker group?); no container metrics`,
      );
      return undefined;
    }
  }
  logger?.info({ socket: socketPath }, `container metrics from the Docker Engine at ${socketPath}`);
  return dockerCollector({ ...options.collector, socketPath });
}

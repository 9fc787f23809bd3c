import { ConfigError } from '@flightdeck/schemas/config';
import pino from 'pino';
import type { AgentStats } from '../agent';
import { type AgentConfig, configFilePath, loadAgentConfig } from '../config';
import { readConfigFile } from '../config-file';
import { AgentLockedError, acquireLock } from '../lock';
import { startAgent } from '../run';
import { writeStatusFile } from '../status-file';
import { type CliContext, CliError, parseCommandArgs } from './context';

function loadConfig(flag: string | undefined, ctx: CliContext): AgentConfig {
  const { file, explicit } = configFilePath(flag, ctx.env, ctx.host);
  const fileValue = readConfigFile(file);
  if (!fileValue && explicit) throw new CliError(`no config file at ${file}`);
  try {
    return loadAgentConfig(ctx.env, ctx.hostname, fileValue, ctx.host);
  } catch (err) {
    if (err instanceof ConfigError && !fileValue) {
      throw new ConfigError([
        ...err.problems,
        `(no config file at ${file}: register this host first with flightdeck-agent register --url <api address> --key <access key>, or set the variables above)`,
      ]);
    }
    throw err;
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * `run [--config]`: the config file with the environment over it, one agent per state directory
 * (pid file), sampling until `ctx.stop` is aborted (SIGINT, SIGTERM). The status file is rewritten
 * after every run for `status`.
 */
export async function runCommand(args: readonly string[], ctx: CliContext): Promise<number> {
  const values = parseCommandArgs('run', args, { config: { type: 'string' } });
  const config = loadConfig(values.config, ctx);
  let lock: ReturnType<typeof acquireLock>;
  try {
    lock = acquireLock(config.stateDir);
  } catch (err) {
    if (err instanceof AgentLockedError) throw new CliError(err.message);
    throw new CliError(`cannot take the state directory ${config.stateDir}: ${(err as Error).message}`);
  }
  try {
    const logger = pino({ level: config.logLevel, name: 'agent' });
    const startedAt = ctx.now();
    const writeStatus = (stats: AgentStats, backlog: { depth: number; dropped: number }) =>
      writeStatusFile(config.stateDir, {
        v: 1,
        pid: process.pid,
        tenant: config.tenant,
        host_key: config.hostKey,
        started_at: startedAt,
        updated_at: ctx.now(),
        last_run_at: stats.lastRunAt,
        runs: stats.runs,
        published: stats.published,
        failed: stats.failed,
        heartbeats_failed: stats.heartbeatsFailed,
        spool_depth: backlog.depth,
        spool_dropped: backlog.dropped,
      });
    writeStatus(
      { runs: 0, published: 0, failed: 0, heartbeatsFailed: 0, lastRunAt: null },
      { depth: 0, dropped: 0 },
    );
    let agent: Awaited<ReturnType<typeof startAgent>>;
    try {
      agent = await startAgent({
        config,
        logger,
        platform: ctx.host.platform,
        onRun: (_result, stats, backlog) => writeStatus(stats, backlog),
      });
    } catch (err) {
      throw new CliError(`the agent could not start: ${(err as Error).message}`);
    }
    await aborted(ctx.stop);
    logger.info('stopping');
    await agent.stop();
    return 0;
  } finally {
    lock.release();
  }
}

import { isSea } from 'node:sea';
import { ConfigError } from '@flightdeck/schemas/config';
import { PRODUCT_VERSION } from '@flightdeck/schemas/version';
import { defaultConfigFile } from '../config';
import { type CliContext, CliError, processContext, UsageError } from './context';
import { registerCommand } from './register';
import { runCommand } from './run';
import { statusCommand } from './status';

export type { CliContext } from './context';
export type { AgentStatusReport } from './status';

function usage(ctx: CliContext): string {
  return `Usage: flightdeck-agent <command> [options]

Commands:
  register --url <api address> --key <access key> [--nats <url>] [--interval <s>] [--config <file>]
                Registers this host with Flightdeck and writes the config file (a re-install
                replaces it and keeps the host's key).
  run [--config <file>]
                Samples this host and publishes until stopped (SIGINT, SIGTERM).
  status [--config <file>] [--json]
                Registration, whether the agent runs, its last run and spool, and the api.
  help          This text.
  --version     The agent's version.

Config file: ${defaultConfigFile(ctx.env, ctx.host)} unless --config or AGENT_CONFIG names
another; environment variables (AGENT_*, NATS_URL, LOG_LEVEL) override its values.
Exit codes: 0 ok, 1 failure, 2 usage error.
`;
}

function version(): string {
  // Inside a single executable the Node.js runtime is part of the binary, not a separate install.
  const runtime = isSea() ? `single executable, Node.js ${process.version}` : `Node.js ${process.version}`;
  return `flightdeck-agent ${PRODUCT_VERSION} (${runtime})\n`;
}

/**
 * The agent's command line: `register`, `run`, `status`, `help`, `--version`. Resolves with the
 * exit code (0 ok, 1 failure, 2 usage error); only `run` lasts beyond its work, until `ctx.stop`.
 */
export async function runCli(argv: readonly string[], overrides: Partial<CliContext> = {}): Promise<number> {
  const ctx: CliContext = { ...processContext(overrides.stop ?? new AbortController().signal), ...overrides };
  const [command, ...rest] = argv;
  if (rest.includes('--help') || rest.includes('-h')) {
    ctx.out(usage(ctx));
    return 0;
  }
  try {
    switch (command) {
      case 'register':
        return await registerCommand(rest, ctx);
      case 'run':
        return await runCommand(rest, ctx);
      case 'status':
        return await statusCommand(rest, ctx);
      case 'help':
      case '--help':
      case '-h':
        ctx.out(usage(ctx));
        return 0;
      case '--version':
      case '-v':
      case 'version':
        ctx.out(version());
        return 0;
      case undefined:
        throw new UsageError('a command is required');
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.err(`flightdeck-agent: ${err.message}\n\n${usage(ctx)}`);
      return err.exitCode;
    }
    if (err instanceof CliError) {
      ctx.err(`flightdeck-agent: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof ConfigError) {
      ctx.err(`flightdeck-agent: ${err.message}\n`);
      return 1;
    }
    ctx.err(`flightdeck-agent: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  }
}

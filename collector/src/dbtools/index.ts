import {
  type CommandReply,
  type CommandRequest,
  DB_INSPECTION_DATA,
  DbInspectParams,
  POLLER_CONFIG_SCHEMAS,
  type PollerService,
  zodIssuePath,
} from '@flightdeck/schemas';
import type { Logger } from 'pino';
import { failure } from '../pollers/failure';
import { isPollerService } from '../pollers/registry';
import type { InspectionResult, Inspector, InspectorFactory } from './contract';
import { createMongodbInspector } from './mongodb';
import { createMssqlInspector } from './mssql';
import { createMysqlInspector } from './mysql';
import { createPostgresInspector } from './postgres';

/**
 * The inspector of each database service that has one (one line an engine). A service absent here
 * has no live database screen calls.
 */
export const INSPECTOR_FACTORIES: { readonly [S in PollerService]?: InspectorFactory<S> } = {
  postgresql: createPostgresInspector,
  mysql: createMysqlInspector,
  mssql: createMssqlInspector,
  mongodb: createMongodbInspector,
  // one engine a line
};

/** Time kept back from the requester's deadline, so the reply travels before it passes. */
const REPLY_MARGIN_MS = 250;

/** The inspector of a target from a config as the command carries it, or `bad_config`. */
export function createInspector(
  service: string,
  config: unknown,
  logger: Logger,
): { ok: true; inspector: Inspector } | Extract<InspectionResult, { ok: false }> {
  const factory = isPollerService(service)
    ? (INSPECTOR_FACTORIES[service] as InspectorFactory<PollerService> | undefined)
    : undefined;
  if (!isPollerService(service) || !factory) {
    return failure('bad_config', `"${service}" has no database inspections.`);
  }
  const parsed = POLLER_CONFIG_SCHEMAS[service].safeParse(config);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${zodIssuePath(i.path) || 'config'}: ${i.message}`);
    return failure('bad_config', `The ${service} configuration is not valid: ${problems.join('; ')}.`);
  }
  return { ok: true, inspector: factory(parsed.data as never, { logger }) };
}

/**
 * Answers a `db_inspect` command (params {@link DbInspectParams}): status `ok` with the inspection's
 * data (checked against its schema), or `error` with the failure's code in `data` and its message.
 * It always answers before the deadline: an inspection still running then answers `timeout`.
 */
export async function answerDbInspect(
  request: CommandRequest,
  logger: Logger,
  create: typeof createInspector = createInspector,
): Promise<CommandReply> {
  const reply = (result: InspectionResult): CommandReply =>
    result.ok
      ? { v: 1, id: request.id, status: 'ok', data: result.data, ts: Date.now() }
      : {
          v: 1,
          id: request.id,
          status: 'error',
          message: result.message,
          data: { code: result.code },
          ts: Date.now(),
        };
  const params = DbInspectParams.safeParse(request.params);
  if (!params.success) {
    const problems = params.error.issues.map((i) => `${zodIssuePath(i.path) || 'params'}: ${i.message}`);
    return reply(failure('bad_config', `The inspection request is not valid: ${problems.join('; ')}.`));
  }
  const { service, config, inspection, table } = params.data;
  const made = create(service, config, logger);
  if (!made.ok) return reply(made);
  if (!made.inspector.supports.includes(inspection)) {
    return reply(failure('bad_config', `${service} has no "${inspection}" inspection.`));
  }
  if ((inspection === 'table_definition' || inspection === 'table_counters') && !table) {
    return reply(failure('bad_config', `"${inspection}" needs the table: database, schema and name.`));
  }
  const budget = Math.max(0, request.deadline - Date.now() - REPLY_MARGIN_MS);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<InspectionResult>((resolve) => {
    timer = setTimeout(
      () => resolve(failure('timeout', `The ${service} server did not answer "${inspection}" in time.`)),
      budget,
    );
  });
  try {
    const result = await Promise.race([made.inspector.inspect({ inspection, table }), late]);
    if (!result.ok) return reply(result);
    const checked = DB_INSPECTION_DATA[inspection].safeParse(result.data);
    if (!checked.success) {
      logger.error(
        { service, inspection, issues: checked.error.issues.slice(0, 5) },
        'inspection data off its schema',
      );
      throw new Error(`the ${service} "${inspection}" inspection answered data off its schema`);
    }
    return reply({ ok: true, data: checked.data } as InspectionResult);
  } finally {
    clearTimeout(timer);
  }
}

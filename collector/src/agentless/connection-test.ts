import type { CommandReply, CommandRequest, ConnectionTestResult } from '@flightdeck/schemas';
import type { Logger } from 'pino';
import { createPoller as defaultCreatePoller } from '../pollers/registry';

/** Time kept back from the requester's deadline, so the reply travels before it passes. */
const REPLY_MARGIN_MS = 250;

/**
 * Answers a `connection_test` command: `params` is `{service, config}`; the reply's `data` is the
 * {@link ConnectionTestResult} and its status `ok` or `error` with the failure's message. It
 * always answers before the deadline: a test still running then answers `timeout`.
 */
export async function answerConnectionTest(
  request: CommandRequest,
  logger: Logger,
  createPoller: typeof defaultCreatePoller = defaultCreatePoller,
): Promise<CommandReply> {
  const reply = (result: ConnectionTestResult): CommandReply => ({
    v: 1,
    id: request.id,
    status: result.ok ? 'ok' : 'error',
    message: result.ok ? `Connected: ${result.version}` : result.message,
    data: result,
    ts: Date.now(),
  });
  const service = String(request.params.service ?? '');
  const made = createPoller(service, request.params.config, { logger });
  if (!made.ok) return reply(made);
  const poller = made.poller;
  const budget = Math.max(0, request.deadline - Date.now() - REPLY_MARGIN_MS);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ConnectionTestResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          ok: false,
          code: 'timeout',
          message: `${poller.target} did not answer in time. Check the address and the credentials and try again.`,
        }),
      budget,
    );
  });
  try {
    const result = await Promise.race([poller.testConnection(), late]);
    if (!result.ok) {
      logger.warn({ target: poller.target, code: result.code }, `connection test failed: ${result.message}`);
    }
    return reply(result);
  } finally {
    clearTimeout(timer);
    // Closing may wait for a connect still in progress: never hold the reply for it.
    void poller
      .close()
      .catch((err: unknown) => logger.warn({ err, target: poller.target }, 'poller close failed'));
  }
}

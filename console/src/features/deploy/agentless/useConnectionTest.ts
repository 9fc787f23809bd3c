import type { PollerService } from '@flightdeck/schemas';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { enqueueConnectionTest, fetchCommandStatus } from './api';
import type { TestState } from './form-model';

/** How often the status of a running test is asked. */
export const POLL_INTERVAL_MS = 1_000;
/** Time for the answer to cross the bus and the polling, besides the config's own time-outs. */
const DEADLINE_MARGIN_MS = 10_000;

/** How long the console waits for a test of `config`: its time-outs plus a margin, at most 130 s. */
export function testDeadlineMs(config: Record<string, unknown>): number {
  const n = (k: string) => (typeof config[k] === 'number' ? (config[k] as number) : 0);
  const own = n('connect_timeout_ms') + n('query_timeout_ms') + n('timeout_ms');
  return Math.min(130_000, (own || 15_000) + DEADLINE_MARGIN_MS);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * Runs a connection test: enqueue, then ask its status every second until the collectors answer
 * `ok` or `error`, or the deadline passes (`deadline`). Polling stops when the page unmounts or a
 * new test starts.
 */
export function useConnectionTest(service: PollerService) {
  const [state, setState] = useState<TestState>({ phase: 'idle' });
  const running = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      running.current?.abort();
    },
    [],
  );

  const run = useCallback(
    async (config: Record<string, unknown>, fingerprint: string) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      const { signal } = controller;
      setState({ phase: 'testing', fingerprint });
      const deadline = Date.now() + testDeadlineMs(config);
      try {
        const { command_id } = await enqueueConnectionTest(service, config);
        while (!signal.aborted) {
          await sleep(POLL_INTERVAL_MS, signal);
          const status = await fetchCommandStatus(command_id, signal);
          if (status.status === 'ok') {
            setState({
              phase: 'passed',
              fingerprint,
              ...(status.version ? { version: status.version } : {}),
              ...(status.details ? { details: status.details } : {}),
            });
            return;
          }
          if (status.status === 'error') {
            setState({
              phase: 'failed',
              fingerprint,
              code: status.code ?? 'connection_failed',
              message: status.message,
            });
            return;
          }
          if (Date.now() > deadline) {
            console.warn(`connection test of ${service} ${command_id} got no answer before the deadline`);
            setState({ phase: 'failed', fingerprint, code: 'deadline', message: '' });
            return;
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        console.warn(`connection test of ${service} failed`, error);
        setState({
          phase: 'failed',
          fingerprint,
          code: error instanceof ApiError ? error.code : 'internal',
          message: error instanceof Error ? error.message : String(error),
        });
      } finally {
        if (running.current === controller) running.current = null;
      }
    },
    [service],
  );

  const reset = useCallback(() => {
    running.current?.abort();
    setState({ phase: 'idle' });
  }, []);

  return { state, run, reset };
}

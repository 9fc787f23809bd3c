import { AlertEvent, SSE_HEARTBEAT_MS, type SseEventName } from '@flightdeck/schemas';

/** The part of the browser's EventSource the stream uses. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: SseEventName, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

/** EventSource.CLOSED: the browser gave up (a non-200 answer, a wrong content type) and will not retry. */
const CLOSED = 2;

export interface AlertStreamTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface AlertStreamOptions {
  /** Opens the stream (the browser's `new EventSource(url, {withCredentials: true})`). */
  open: () => EventSourceLike;
  /** An `alert` event of the session's customer, checked against the shared schema. */
  onAlert: (event: AlertEvent) => void;
  /** The stream is open again after a drop: events may have been missed, so lists should refetch. */
  onReconnect: () => void;
  /** An `alert` event that does not match the schema (logged; the stream goes on). */
  onInvalid?: (reason: string) => void;
  timers?: AlertStreamTimers;
}

/** No message (the server pings every 15 s) for this long: the stream is dead and is opened again. */
export const STALE_STREAM_MS = SSE_HEARTBEAT_MS * 2 + 5_000;
/** First wait before opening a stream the browser gave up on; doubles up to {@link MAX_RECONNECT_MS}. */
export const FIRST_RECONNECT_MS = 1_000;
export const MAX_RECONNECT_MS = 30_000;

const browserTimers: AlertStreamTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof globalThis.setInterval>),
};

/**
 * Follows `GET /api/events` (spec: live alert state). The browser retries a dropped connection by
 * itself, but not one it closed (a 401, a proxy's error page), nor one that stays open and silent:
 * both are opened again here, with a growing wait, and every reopening after the first open calls
 * `onReconnect`. Returns the function that closes the stream for good (sign-out, shell unmounted).
 */
export function followAlertEvents(options: AlertStreamOptions): () => void {
  const timers = options.timers ?? browserTimers;
  let source: EventSourceLike | null = null;
  let lastMessage = timers.now();
  let everOpened = false;
  let failures = 0;
  let retry: unknown = null;
  let stopped = false;

  const seen = () => {
    lastMessage = timers.now();
  };

  const connect = () => {
    retry = null;
    if (stopped) return;
    const current = options.open();
    source = current;
    seen();
    current.onopen = () => {
      if (source !== current) return;
      seen();
      failures = 0;
      if (everOpened) options.onReconnect();
      everOpened = true;
    };
    current.onerror = () => {
      if (source !== current) return;
      // CONNECTING: the browser retries by itself. CLOSED: it will not, so do it here.
      if (current.readyState === CLOSED) reopen();
    };
    current.addEventListener('ping', seen);
    current.addEventListener('alert', (message) => {
      if (source !== current) return;
      seen();
      let body: unknown;
      try {
        body = JSON.parse(message.data);
      } catch {
        options.onInvalid?.('an alert event that is not JSON');
        return;
      }
      const parsed = AlertEvent.safeParse(body);
      if (parsed.success) options.onAlert(parsed.data);
      else options.onInvalid?.(parsed.error.issues[0]?.message ?? 'an alert event of another shape');
    });
  };

  const reopen = () => {
    source?.close();
    source = null;
    if (stopped || retry !== null) return;
    const wait = Math.min(FIRST_RECONNECT_MS * 2 ** failures, MAX_RECONNECT_MS);
    failures += 1;
    retry = timers.setTimeout(connect, wait);
  };

  const watchdog = timers.setInterval(() => {
    if (source && timers.now() - lastMessage > STALE_STREAM_MS) reopen();
  }, SSE_HEARTBEAT_MS);

  connect();

  return () => {
    stopped = true;
    timers.clearInterval(watchdog);
    if (retry !== null) timers.clearTimeout(retry);
    source?.close();
    source = null;
  };
}

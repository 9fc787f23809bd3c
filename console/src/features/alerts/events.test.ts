import type { AlertEvent } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  type AlertStreamTimers,
  type EventSourceLike,
  FIRST_RECONNECT_MS,
  followAlertEvents,
  MAX_RECONNECT_MS,
  STALE_STREAM_MS,
} from './events';

/**
 * A scripted stream with the EventSource surface (the browser's own is not in Node); the browser
 * suite (e2e/alerts.e2e.ts) follows the real `GET /api/events`.
 */
class ScriptedSource implements EventSourceLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  emit(type: string, data: string) {
    for (const l of this.listeners.get(type) ?? []) l({ data } as MessageEvent<string>);
  }
  fail(giveUp: boolean) {
    this.readyState = giveUp ? 2 : 0;
    this.onerror?.(new Event('error'));
  }
}

/** Timers driven by the test: `advance` runs what falls due, in order. */
function manualTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void; every?: number }>();
  const timers: AlertStreamTimers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      pending.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => pending.delete(h as number),
    setInterval: (fn, ms) => {
      pending.set(++seq, { at: now + ms, fn, every: ms });
      return seq;
    },
    clearInterval: (h) => pending.delete(h as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const next = [...pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      const [id, task] = next;
      now = task.at;
      if (task.every) task.at += task.every;
      else pending.delete(id);
      task.fn();
    }
    now = end;
  };
  return { timers, advance, pendingCount: () => pending.size };
}

const event: AlertEvent = {
  v: 1,
  kind: 'alert',
  tenant: '1',
  event: 'new',
  alert: { id: 4, historic_id: 9, server_id: 2, type_id: 21, status: 'R', text: 'CPU', date_enter: 100 },
  ts: 1_700_000_000_000,
};

function setup() {
  const clock = manualTimers();
  const sources: ScriptedSource[] = [];
  const alerts: AlertEvent[] = [];
  const invalid: string[] = [];
  let reconnects = 0;
  const stop = followAlertEvents({
    open: () => {
      const s = new ScriptedSource();
      sources.push(s);
      return s;
    },
    onAlert: (e) => alerts.push(e),
    onReconnect: () => reconnects++,
    onInvalid: (reason) => invalid.push(reason),
    timers: clock.timers,
  });
  return { clock, sources, alerts, invalid, reconnects: () => reconnects, stop };
}

describe('alert event stream', () => {
  it('passes on alert events that match the schema and reports the others', () => {
    const s = setup();
    s.sources[0]!.open();
    s.sources[0]!.emit('alert', JSON.stringify(event));
    s.sources[0]!.emit('alert', 'not json');
    s.sources[0]!.emit('alert', JSON.stringify({ ...event, v: 2 }));
    expect(s.alerts).toEqual([event]);
    expect(s.invalid).toHaveLength(2);
    expect(s.reconnects()).toBe(0);
  });

  it('leaves a dropped stream to the browser and refetches once it is back', () => {
    const s = setup();
    s.sources[0]!.open();
    s.sources[0]!.fail(false);
    s.sources[0]!.open();
    expect(s.sources).toHaveLength(1);
    expect(s.reconnects()).toBe(1);
  });

  it('opens a stream the browser gave up on again, waiting longer each time', () => {
    const s = setup();
    s.sources[0]!.fail(true);
    expect(s.sources[0]!.closed).toBe(true);
    s.clock.advance(FIRST_RECONNECT_MS - 1);
    expect(s.sources).toHaveLength(1);
    s.clock.advance(1);
    expect(s.sources).toHaveLength(2);
    s.sources[1]!.fail(true);
    s.clock.advance(FIRST_RECONNECT_MS);
    expect(s.sources).toHaveLength(2);
    s.clock.advance(FIRST_RECONNECT_MS);
    expect(s.sources).toHaveLength(3);
    for (let i = 0; i < 10; i++) {
      s.sources.at(-1)!.fail(true);
      s.clock.advance(MAX_RECONNECT_MS);
    }
    expect(s.sources).toHaveLength(13);
    // The first open is not a reconnection: nothing was shown before it.
    s.sources.at(-1)!.open();
    expect(s.reconnects()).toBe(0);
  });

  it('opens a silent stream again once the heartbeat is missing', () => {
    const s = setup();
    s.sources[0]!.open();
    s.clock.advance(STALE_STREAM_MS - 1_000);
    s.sources[0]!.emit('ping', '{"ts":1}');
    s.clock.advance(STALE_STREAM_MS - 1_000);
    expect(s.sources).toHaveLength(1);
    s.clock.advance(STALE_STREAM_MS + FIRST_RECONNECT_MS);
    expect(s.sources[0]!.closed).toBe(true);
    expect(s.sources).toHaveLength(2);
    s.sources[1]!.open();
    expect(s.reconnects()).toBe(1);
  });

  it('closes the stream and every timer when stopped', () => {
    const s = setup();
    s.sources[0]!.fail(true);
    s.stop();
    expect(s.clock.pendingCount()).toBe(0);
    s.clock.advance(MAX_RECONNECT_MS * 2);
    expect(s.sources).toHaveLength(1);
  });
});

import {
  DEFAULT_REFRESH_INTERVAL,
  type RefreshAction,
  type RefreshEvent,
  type RefreshState,
  refreshReducer,
} from '@flightdeck/schemas';
import { useEffect, useRef } from 'react';
import { createStore, type Store, useStore } from '../lib/store';

/**
 * Auto-refresh of the shell (spec 4): RUNNING, PAUSED or DISABLED, steered by a click on the control
 * (`toggle`) and by four global events any page may raise. While RUNNING a timer fires the global
 * `refresh` event every `interval` seconds and records when it did; otherwise the timer is stopped.
 */
export interface RefreshSnapshot {
  state: RefreshState;
  /** Seconds between two refresh events. */
  interval: number;
  /** Unix milliseconds of the last refresh event, undefined before the first. */
  lastUpdate: number | undefined;
}

export interface RefreshTimers {
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface RefreshController {
  readonly store: Store<RefreshSnapshot>;
  /** A click on the control or a global event. */
  dispatch(action: RefreshAction): void;
  setInterval(seconds: number): void;
  /** Listens for the periodic (or a manual) refresh; returns the unsubscribe function. */
  onRefresh(listener: () => void): () => void;
  /** Fires a refresh now (the "refresh now" button) and records the time. */
  refreshNow(): void;
}

const browserTimers: RefreshTimers = {
  now: () => Date.now(),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof globalThis.setInterval>),
};

export function createRefreshController(timers: RefreshTimers = browserTimers): RefreshController {
  const store = createStore<RefreshSnapshot>({
    state: 'RUNNING',
    interval: DEFAULT_REFRESH_INTERVAL,
    lastUpdate: undefined,
  });
  const listeners = new Set<() => void>();
  let handle: unknown;

  function fire() {
    store.set((prev) => ({ ...prev, lastUpdate: timers.now() }));
    for (const listener of [...listeners]) listener();
  }

  // One timer at most, and only while RUNNING; restarted when the interval changes.
  function schedule() {
    if (handle !== undefined) timers.clearInterval(handle);
    handle = undefined;
    const { state, interval } = store.get();
    if (state === 'RUNNING') handle = timers.setInterval(fire, interval * 1000);
  }

  schedule();
  return {
    store,
    dispatch(action) {
      const before = store.get().state;
      const after = refreshReducer(before, action);
      if (after === before) return;
      store.set((prev) => ({ ...prev, state: after }));
      schedule();
    },
    setInterval(seconds) {
      if (!Number.isFinite(seconds) || seconds <= 0 || seconds === store.get().interval) return;
      store.set((prev) => ({ ...prev, interval: seconds }));
      schedule();
    },
    onRefresh(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refreshNow: fire,
  };
}

/** The console's one controller. */
export const refresh = createRefreshController();

/** Raises one of the four global events (`refresh_config_pause`, `_enable`, `_disable`, `_play`). */
export function emitRefreshEvent(event: RefreshEvent): void {
  refresh.dispatch(event);
}

export function useRefreshState(): RefreshSnapshot {
  return useStore(refresh.store);
}

/** Calls `listener` on every global refresh while the component is mounted. */
export function useOnRefresh(listener: () => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => refresh.onRefresh(() => latest.current()), []);
}

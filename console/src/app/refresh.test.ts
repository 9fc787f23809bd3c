import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRefreshController, type RefreshTimers } from './refresh';

const timers: RefreshTimers = {
  now: () => Date.now(),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

describe('refresh controller', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_700_000_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('starts RUNNING every 300 s and fires a refresh event at each interval, recording the time', () => {
    const controller = createRefreshController(timers);
    const listener = vi.fn();
    controller.onRefresh(listener);
    controller.dispatch('refresh_config_enable');
    expect(controller.store.get()).toMatchObject({ state: 'RUNNING', interval: 300, lastUpdate: undefined });
    controller.setInterval(60);
    vi.advanceTimersByTime(59_999);
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(controller.store.get().lastUpdate).toBe(1_700_000_060_000);
    vi.advanceTimersByTime(120_000);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('toggles RUNNING and PAUSED on a click and stops the timer while PAUSED', () => {
    const controller = createRefreshController(timers);
    const listener = vi.fn();
    controller.onRefresh(listener);
    controller.setInterval(60);
    controller.dispatch('toggle');
    expect(controller.store.get().state).toBe('PAUSED');
    vi.advanceTimersByTime(600_000);
    expect(listener).not.toHaveBeenCalled();
    controller.dispatch('toggle');
    expect(controller.store.get().state).toBe('RUNNING');
    vi.advanceTimersByTime(60_000);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('maps the four global events to PAUSED, RUNNING, DISABLED and RUNNING', () => {
    const controller = createRefreshController(timers);
    controller.dispatch('refresh_config_pause');
    expect(controller.store.get().state).toBe('PAUSED');
    controller.dispatch('refresh_config_enable');
    expect(controller.store.get().state).toBe('RUNNING');
    controller.dispatch('refresh_config_disable');
    expect(controller.store.get().state).toBe('DISABLED');
    controller.dispatch('refresh_config_play');
    expect(controller.store.get().state).toBe('RUNNING');
  });

  it('leaves DISABLED alone on a click and fires nothing while disabled', () => {
    const controller = createRefreshController(timers);
    const listener = vi.fn();
    controller.onRefresh(listener);
    controller.dispatch('refresh_config_disable');
    controller.dispatch('toggle');
    expect(controller.store.get().state).toBe('DISABLED');
    vi.advanceTimersByTime(3_600_000);
    expect(listener).not.toHaveBeenCalled();
  });

  it('restarts the timer when the interval changes, and ignores an interval that is not a number', () => {
    const controller = createRefreshController(timers);
    const listener = vi.fn();
    controller.onRefresh(listener);
    vi.advanceTimersByTime(200_000);
    controller.setInterval(600);
    vi.advanceTimersByTime(400_000);
    expect(listener).not.toHaveBeenCalled();
    controller.setInterval(Number.NaN);
    expect(controller.store.get().interval).toBe(600);
    vi.advanceTimersByTime(200_000);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('refreshes now on demand and records the time, whatever the state', () => {
    const controller = createRefreshController(timers);
    const listener = vi.fn();
    const off = controller.onRefresh(listener);
    controller.dispatch('refresh_config_pause');
    controller.refreshNow();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(controller.store.get().lastUpdate).toBe(1_700_000_000_000);
    off();
    controller.refreshNow();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

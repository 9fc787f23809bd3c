import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricBatch } from '@flightdeck/schemas';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../store/sqlite';
import {
  type BaselineModel,
  band,
  createDynamicSet,
  type DynamicRule,
  type DynamicTransition,
  hourOfWeek,
  learnBaseline,
  learnRuleSeries,
  modelKey,
  sigmaFloorOf,
} from './baseline';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Monday 2 February 2026, 00:00 UTC: the end of the learnt history in most tests. */
const NOW = Date.UTC(2026, 1, 2);
const MONDAY_14 = NOW + 14 * HOUR;
const SUNDAY_03 = NOW + 6 * DAY + 3 * HOUR;

/** A small deterministic generator, so a failing test fails the same way every run. */
function noise(seed = 7) {
  let s = seed;
  return (amplitude: number) => {
    s = (s * 1_103_515_245 + 12_345) & 0x7fffffff;
    return (s / 0x7fffffff - 0.5) * 2 * amplitude;
  };
}

/** Office load: 80 on weekdays from 09:00 to 18:00 UTC, 10 otherwise, with +/-3 of noise. */
function office(t: number): number {
  const slot = hourOfWeek(t);
  const dow = Math.floor(slot / 24);
  const h = slot % 24;
  return dow >= 1 && dow <= 5 && h >= 9 && h < 18 ? 80 : 10;
}

function history(from: number, to: number, stepMs: number, f: (t: number) => number, amp = 3) {
  const n = noise();
  const out: { t: number; v: number }[] = [];
  for (let t = from; t < to; t += stepMs) out.push({ t, v: f(t) + n(amp) });
  return out;
}

function rule(over: Partial<DynamicRule> = {}): DynamicRule {
  return {
    id: 1,
    tenant: 't1',
    host: 'h1',
    service: null,
    metric: 'app.load',
    labels: null,
    direction: 'both',
    sensitivity: 3,
    forMs: 0,
    minDeviation: 0,
    ...over,
  };
}

const KEY = modelKey('t1', 'h1', '', 'app.load', '');

function batch(samples: { t: number; v: number }[], m = 'app.load', host = 'h1'): MetricBatch {
  return {
    v: 1,
    tenant: 't1',
    host,
    source: 'agent',
    ts: samples[0]!.t,
    samples: samples.map((s) => ({ m, v: s.v, t: s.t })),
  };
}

function run(r: DynamicRule, model: BaselineModel, samples: { t: number; v: number }[]): DynamicTransition[] {
  const set = createDynamicSet([r]);
  set.setModel(KEY, model);
  const out: DynamicTransition[] = [];
  set.evaluate(batch(samples), (t) => out.push(t));
  return out;
}

/** Medians of noisy seasons land near the pattern's value, not on it. */
function expectNear(value: number, target: number, tolerance = 1.5) {
  expect(Math.abs(value - target)).toBeLessThan(tolerance);
}

const path = (ts: DynamicTransition[]) => ts.map((t) => `${t.from}>${t.to}@${t.value}`);

describe('learnBaseline', () => {
  const fourWeeks = learnBaseline(history(NOW - 28 * DAY, NOW, 5 * MIN, office));

  it('learns each hour of the week from four weeks of 5-minute points', () => {
    expect(fourWeeks.armed).toBe(true);
    expect(fourWeeks.points).toBe(28 * 288);
    const monday = band(fourWeeks, MONDAY_14)!;
    expect(monday).toMatchObject({ season: 'hour_of_week', season_key: 'mon-14', sensitivity: 3 });
    expectNear(monday.median, 80);
    const sunday = band(fourWeeks, SUNDAY_03)!;
    expect(sunday).toMatchObject({ season: 'hour_of_week', season_key: 'sun-03' });
    expectNear(sunday.median, 10);
    // Uniform noise of +/-3 has a MAD of 1.5: sigma about 2.2, floored at 5% of the median (4 at 80).
    expect(sunday.sigma).toBeGreaterThan(1.8);
    expect(sunday.sigma).toBeLessThan(2.6);
    expect(monday.sigma).toBeCloseTo(0.05 * monday.median, 9);
    expect(sunday.upper).toBeCloseTo(sunday.median + 3 * sunday.sigma, 9);
  });

  it('is not armed with 20 hours of history, and is with 24', () => {
    const twenty = learnBaseline(history(NOW - 20 * HOUR, NOW, 5 * MIN, office));
    expect(twenty.armed).toBe(false);
    expect(band(twenty, NOW)).toBeNull();
    // 287 five-minute points cover 23 h 55 min; 288 cover a whole day.
    expect(learnBaseline(history(NOW - DAY + 5 * MIN, NOW, 5 * MIN, office)).armed).toBe(false);
    expect(learnBaseline(history(NOW - DAY, NOW, 5 * MIN, office)).armed).toBe(true);
    expect(learnBaseline([]).armed).toBe(false);
  });

  it('falls back to the hour of the day when the hour of the week has too few points', () => {
    // Hourly points over three weeks: 3 per hour of the week (< 6), 21 per hour of the day.
    const hourly = learnBaseline(history(NOW - 21 * DAY, NOW, HOUR, office));
    const b = band(hourly, MONDAY_14)!;
    expect(b).toMatchObject({ season: 'hour_of_day', season_key: '14' });
    // 15 weekday values of 80 against 6 weekend values of 10.
    expectNear(b.median, 80);
  });

  it('falls back to the hour of the day when the hour of the week comes from one week only', () => {
    const oneWeek = learnBaseline(history(NOW - 7 * DAY, NOW, 5 * MIN, office));
    expect(band(oneWeek, MONDAY_14)).toMatchObject({ season: 'hour_of_day', season_key: '14' });
    expect(
      learnBaseline(history(NOW - 7 * DAY, NOW, 5 * MIN, office), { minSeasonCycles: 1 }).season[38],
    ).toBe(0);
  });

  it('falls back to all the history when the hour of the day has not been seen on two days', () => {
    // 30 hours from Monday 00:00: hours 00-05 seen on Monday and Tuesday, the others on Monday only.
    const start = NOW - 7 * DAY;
    const short = learnBaseline(history(start, start + 30 * HOUR, 5 * MIN, () => 50));
    expect(band(short, start + DAY + 3 * HOUR)).toMatchObject({ season: 'hour_of_day', season_key: '03' });
    expect(band(short, start + 2 * DAY + 12 * HOUR)).toMatchObject({ season: 'global', season_key: 'all' });
  });

  it('floors sigma on a flat series: a fraction of the median and an absolute floor', () => {
    const flat = learnBaseline(history(NOW - 2 * DAY, NOW, 5 * MIN, () => 100, 0.001));
    expect(band(flat, NOW + HOUR)!.sigma).toBeCloseTo(5, 3); // 5% of 100, not 0.0007
    expect(
      path(
        run(
          rule(),
          flat,
          [104, 116, 125].map((v, i) => ({ t: NOW + HOUR + i * MIN, v })),
        ),
      ),
    ).toEqual(['G>Y@116', 'Y>R@125']);
    const zero = history(NOW - 2 * DAY, NOW, 5 * MIN, () => 0, 0);
    expect(band(learnBaseline(zero), NOW)!.sigma).toBeLessThan(1e-6);
    const floored = learnBaseline(zero, { absoluteFloor: 0.5 });
    expect(
      path(
        run(
          rule(),
          floored,
          [1, 2, 2.5].map((v, i) => ({ t: NOW + i * MIN, v })),
        ),
      ),
    ).toEqual(['G>Y@2', 'Y>R@2.5']);
    expect(sigmaFloorOf('cpu.total')).toBe(2);
    expect(sigmaFloorOf('url.response_time_ms')).toBe(10);
    expect(sigmaFloorOf('no.such_metric')).toBe(0);
  });

  it('reads the seasons on the clock it is given', () => {
    // Office hours 09-18 at UTC-3: 12-21 UTC.
    const local = (t: number) => office(t - 3 * HOUR);
    const model = learnBaseline(history(NOW - 28 * DAY, NOW, 5 * MIN, local), { utcOffsetMinutes: -180 });
    expect(band(model, NOW + 20 * HOUR)).toMatchObject({ season_key: 'mon-17' });
    expectNear(band(model, NOW + 20 * HOUR)!.median, 80);
    expectNear(band(model, NOW + 22 * HOUR)!.median, 10);
  });

  it('survives a JSON round trip', () => {
    const again = JSON.parse(JSON.stringify(fourWeeks)) as BaselineModel;
    expect(band(again, SUNDAY_03)).toEqual(band(fourWeeks, SUNDAY_03));
  });
});

describe('dynamic evaluation', () => {
  const model = learnBaseline(history(NOW - 28 * DAY, NOW, 5 * MIN, office));

  it('fires on a value normal at 14:00 on Monday only when it comes at 03:00 on Sunday', () => {
    const out = run(rule(), model, [
      { t: MONDAY_14, v: 80 },
      { t: MONDAY_14 + 5 * MIN, v: 83 },
      { t: SUNDAY_03, v: 80 },
    ]);
    expect(path(out)).toEqual(['G>R@80']);
    expect(out[0]).toMatchObject({ ts: SUNDAY_03, season: 'hour_of_week', season_key: 'sun-03' });
  });

  it('carries the band, season, algorithm and score that made it fire', () => {
    const [t] = run(rule(), model, [{ t: SUNDAY_03, v: 30 }]);
    const b = band(model, SUNDAY_03)!;
    expect(t).toMatchObject({
      rule: { id: 1 },
      tenant: 't1',
      host: 'h1',
      service: '',
      metric: 'app.load',
      labels: '',
      from: 'G',
      to: 'R',
      value: 30,
      algorithm: 'seasonal-median-mad',
      season: 'hour_of_week',
      season_key: 'sun-03',
      band: { lower: b.lower, upper: b.upper, median: b.median },
    });
    expect(t!.score).toBeCloseTo((30 - b.median) / b.sigma, 9);
    expect(t!.score).toBeGreaterThan(4.5);
  });

  it('raises nothing while the model is not armed or missing', () => {
    const twenty = learnBaseline(history(NOW - 20 * HOUR, NOW, 5 * MIN, office));
    expect(run(rule(), twenty, [{ t: NOW + HOUR, v: 1e9 }])).toEqual([]);
    const set = createDynamicSet([rule()]);
    const out: DynamicTransition[] = [];
    set.evaluate(batch([{ t: SUNDAY_03, v: 1e9 }]), (t) => out.push(t));
    expect(out).toEqual([]);
    // A model set later is picked up by the series' next sample.
    set.setModel(KEY, model);
    set.evaluate(batch([{ t: SUNDAY_03 + MIN, v: 1e9 }]), (t) => out.push(t));
    expect(path(out)).toEqual(['G>R@1000000000']);
  });

  it('watches only the direction the rule names, beyond its smallest deviation', () => {
    const low = [{ t: MONDAY_14, v: 20 }];
    const high = [{ t: SUNDAY_03, v: 40 }];
    expect(run(rule({ direction: 'above' }), model, low)).toEqual([]);
    expect(path(run(rule({ direction: 'below' }), model, low))).toEqual(['G>R@20']);
    expect(run(rule({ direction: 'below' }), model, high)).toEqual([]);
    expect(path(run(rule({ direction: 'above' }), model, high))).toEqual(['G>R@40']);
    expect(run(rule({ minDeviation: 50 }), model, high)).toEqual([]);
    // Between the yellow and the red edge: yellow. Red at 1.5 k by default, configurable.
    const b = band(model, SUNDAY_03)!;
    const mid = [{ t: SUNDAY_03, v: b.median + 4 * b.sigma }];
    expect(path(run(rule(), model, mid))).toEqual([`G>Y@${mid[0]!.v}`]);
    expect(path(run(rule({ criticalFactor: 1.2 }), model, mid))).toEqual([`G>R@${mid[0]!.v}`]);
  });

  it('raises after the "for" duration and resolves once back inside the band for the recovery time', () => {
    const r = rule({ forMs: 10 * MIN, recoverMs: 15 * MIN });
    const t0 = SUNDAY_03;
    const values = [40, 40, 40, 25, 12, 11, 10, 10, 10];
    const out = run(
      r,
      model,
      values.map((v, i) => ({ t: t0 + i * 5 * MIN, v })),
    );
    expect(path(out)).toEqual(['G>R@40', 'R>G@10']);
    expect(out[0]!.ts).toBe(t0 + 10 * MIN);
    // 25 is still outside; back inside from 12 (t0 + 20 min), resolved 15 minutes later.
    expect(out[1]!.ts).toBe(t0 + 35 * MIN);
  });

  it('keeps a red alert red while the value is between the yellow and the red edge', () => {
    const b = band(model, SUNDAY_03)!;
    const yellowZone = b.median + 4 * b.sigma;
    const out = run(rule(), model, [
      { t: SUNDAY_03, v: 60 },
      { t: SUNDAY_03 + MIN, v: yellowZone },
      { t: SUNDAY_03 + 2 * MIN, v: 10 },
    ]);
    expect(path(out)).toEqual(['G>R@60', 'R>G@10']);
  });

  it('ignores a late sample and a NaN', () => {
    const set = createDynamicSet([rule()]);
    set.setModel(KEY, model);
    const out: DynamicTransition[] = [];
    set.evaluate(batch([{ t: SUNDAY_03, v: 60 }]), (t) => out.push(t));
    set.evaluate(batch([{ t: SUNDAY_03 - MIN, v: 10 }]), (t) => out.push(t));
    set.evaluate(batch([{ t: SUNDAY_03 + MIN, v: Number.NaN }]), (t) => out.push(t));
    expect(path(out)).toEqual(['G>R@60']);
  });

  it('restores persisted states so a restart raises nothing twice', () => {
    const first = createDynamicSet([rule()]);
    first.setModel(KEY, model);
    first.evaluate(batch([{ t: SUNDAY_03, v: 60 }]), () => {});
    const saved = JSON.parse(JSON.stringify(first.states())) as ReturnType<typeof first.states>;
    expect(saved).toEqual([
      {
        ruleId: 1,
        host: 'h1',
        service: '',
        labels: '',
        state: { level: 'R', pending: 'G', pendingSince: 0, value: 60, ts: SUNDAY_03, insideSince: 0 },
      },
    ]);
    const second = createDynamicSet([rule()]);
    second.setModel(KEY, model);
    for (const s of saved) second.restore(s.ruleId, s.host, s.service, s.labels, s.state);
    const out: DynamicTransition[] = [];
    second.evaluate(batch([{ t: SUNDAY_03 + MIN, v: 61 }]), (t) => out.push(t));
    expect(out).toEqual([]);
    second.evaluate(batch([{ t: SUNDAY_03 + 2 * MIN, v: 10 }]), (t) => out.push(t));
    expect(path(out)).toEqual(['R>G@10']);
  });

  it('keeps states when a rule’s sensitivity changes, and starts over when it watches another metric', () => {
    const set = createDynamicSet([rule()]);
    set.setModel(KEY, model);
    set.evaluate(batch([{ t: SUNDAY_03, v: 60 }]), () => {});
    set.upsert(rule({ sensitivity: 4 }));
    expect(set.states()).toHaveLength(1);
    set.upsert(rule({ metric: 'app.other' }));
    expect(set.states()).toEqual([]);
    set.remove(1);
    expect(set.rules()).toEqual([]);
  });
});

describe('relearning from the store', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });

  function tempStore() {
    const dir = mkdtempSync(join(tmpdir(), 'fd-baseline-test-'));
    const store = createSqliteStore({ path: join(dir, 'metrics.db') });
    let closed = false;
    const close = async () => {
      if (!closed) await store.close();
      closed = true;
    };
    cleanup.push(async () => {
      await close();
      rmSync(dir, { recursive: true, force: true });
    });
    return { store, close };
  }

  /** Disk busy time: 60% in office hours (every day), 5% otherwise, one sample a minute. */
  const busy = (t: number) => {
    const h = hourOfWeek(t) % 24;
    return h >= 9 && h < 18 ? 60 : 5;
  };

  function diskBatch(host: string, device: string, from: number, to: number): MetricBatch {
    const n = noise(device.length + host.length);
    const samples: MetricBatch['samples'] = [];
    for (let t = from; t < to; t += MIN) {
      samples.push({ m: 'disk_io.busy_pct', l: { device }, v: Math.max(0, busy(t) + n(2)), t });
    }
    return { v: 1, tenant: 't1', host, source: 'agent', ts: from, samples };
  }

  const diskRule = (over: Partial<DynamicRule> = {}) =>
    rule({ metric: 'disk_io.busy_pct', direction: 'above', ...over });

  it('learns every series of a rule from a few days of data and judges new samples with them', async () => {
    const { store } = tempStore();
    const from = NOW - 3 * DAY;
    await store.write([diskBatch('h1', 'sda', from, NOW), diskBatch('h1', 'sdb', from, NOW)]);
    await store.write([diskBatch('h2', 'sda', from, NOW)]);

    const set = createDynamicSet([diskRule()]);
    const { learnt, failed } = await set.relearn(store, diskRule(), NOW);
    expect(failed).toEqual([]);
    expect(learnt.map((l) => l.key).sort()).toEqual([
      modelKey('t1', 'h1', '', 'disk_io.busy_pct', 'device=sda'),
      modelKey('t1', 'h1', '', 'disk_io.busy_pct', 'device=sdb'),
    ]);
    const sda = set.model(modelKey('t1', 'h1', '', 'disk_io.busy_pct', 'device=sda'))!;
    // Three days of 5-minute averages: 864 points; an hour of the week seen once, so hour of day.
    expect(sda).toMatchObject({ armed: true, points: 864 });
    const at14 = band(sda, NOW + 14 * HOUR)!;
    expect(at14).toMatchObject({ season: 'hour_of_day', season_key: '14' });
    expectNear(at14.median, 60);
    expectNear(band(sda, NOW + 3 * HOUR)!.median, 5);

    const out: DynamicTransition[] = [];
    const sample = (t: number, v: number, device = 'sda'): MetricBatch => ({
      v: 1,
      tenant: 't1',
      host: 'h1',
      source: 'agent',
      ts: t,
      samples: [{ m: 'disk_io.busy_pct', l: { device }, v, t }],
    });
    set.evaluate(sample(NOW + 14 * HOUR, 62), (t) => out.push(t));
    set.evaluate(sample(NOW + 27 * HOUR, 62), (t) => out.push(t));
    expect(out.map((t) => `${t.labels}:${t.to}@${t.ts - NOW}`)).toEqual([`device=sda:R@${27 * HOUR}`]);
    expect(out[0]).toMatchObject({ season: 'hour_of_day', season_key: '03' });
  });

  it('learns a rule on every host for the hosts its samples came from', async () => {
    const { store } = tempStore();
    const from = NOW - 2 * DAY;
    await store.write([diskBatch('h1', 'sda', from, NOW), diskBatch('h2', 'sda', from, NOW)]);
    const anyHost = diskRule({ id: 2, host: null, labels: { device: 'sda' } });
    const set = createDynamicSet([anyHost]);
    expect((await set.relearn(store, anyHost, NOW)).learnt).toEqual([]);
    set.evaluate(diskBatch('h2', 'sda', NOW, NOW + MIN), () => {});
    const { learnt } = await set.relearn(store, anyHost, NOW);
    expect(learnt.map((l) => l.key)).toEqual([modelKey('t1', 'h2', '', 'disk_io.busy_pct', 'device=sda')]);
    const both = await learnRuleSeries(store, anyHost, NOW, { hosts: ['h1', 'h2', 'h3'] });
    expect(both.map((l) => l.host)).toEqual(['h1', 'h2']);
    // The unit's floor applies: percent, two points.
    expect(Math.min(...both[0]!.model.sigma)).toBeGreaterThanOrEqual(2);
  });

  it('reports and logs a host the store fails on, and keeps the models it had', async () => {
    const { store, close } = tempStore();
    await store.write([diskBatch('h1', 'sda', NOW - 2 * DAY, NOW)]);
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const set = createDynamicSet([diskRule()], { logger });
    await set.relearn(store, diskRule(), NOW);
    const key = modelKey('t1', 'h1', '', 'disk_io.busy_pct', 'device=sda');
    const before = set.model(key);
    expect(before?.armed).toBe(true);
    await close();
    const { failed } = await set.relearn(store, diskRule(), NOW + HOUR);
    expect(failed.map((f) => f.host)).toEqual(['h1']);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ rule: 1, host: 'h1', metric: 'disk_io.busy_pct' });
    expect(set.model(key)).toBe(before);
  });
});

import type { MetricBatch } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { createRuleSet, levelOf, type RuleTransition, step, type ThresholdRule } from './rules';

const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);

function rule(over: Partial<ThresholdRule> = {}): ThresholdRule {
  return {
    id: 1,
    tenant: 't1',
    host: null,
    service: null,
    metric: 'cpu.used_pct',
    labels: null,
    operator: 'gt',
    warning: 70,
    critical: 90,
    recovery: null,
    forMs: 0,
    ...over,
  };
}

function batch(values: number[], over: Partial<MetricBatch> = {}, m = 'cpu.used_pct'): MetricBatch {
  return {
    v: 1,
    tenant: 't1',
    host: 'h1',
    source: 'agent',
    ts: T0,
    samples: values.map((v, i) => ({ m, v, t: T0 + i * 10_000 })),
    ...over,
  };
}

function run(rules: ThresholdRule[], batches: MetricBatch[]): RuleTransition[] {
  const set = createRuleSet(rules);
  const out: RuleTransition[] = [];
  for (const b of batches) set.evaluate(b, (t) => out.push(t));
  return out;
}

const path = (ts: RuleTransition[]) => ts.map((t) => `${t.from}>${t.to}@${t.value}`);

describe('levelOf', () => {
  it('gives red over yellow, and green below both', () => {
    expect(levelOf(rule(), 95)).toBe('R');
    expect(levelOf(rule(), 80)).toBe('Y');
    expect(levelOf(rule(), 50)).toBe('G');
  });

  it('reads "less than" rules downwards (free disk below 10% yellow, below 5% red)', () => {
    const r = rule({ operator: 'lt', warning: 10, critical: 5 });
    expect(levelOf(r, 4)).toBe('R');
    expect(levelOf(r, 8)).toBe('Y');
    expect(levelOf(r, 20)).toBe('G');
  });

  it('makes boolean rules red on any non-zero value and inverse boolean red on zero', () => {
    expect(levelOf(rule({ operator: 'bool', warning: null, critical: null }), 1)).toBe('R');
    expect(levelOf(rule({ operator: 'bool' }), 0)).toBe('G');
    expect(levelOf(rule({ operator: 'not_bool' }), 0)).toBe('R');
    expect(levelOf(rule({ operator: 'not_bool' }), 1)).toBe('G');
  });

  it('supports a rule with only a red level', () => {
    const r = rule({ warning: null, critical: 90 });
    expect(levelOf(r, 80)).toBe('G');
    expect(levelOf(r, 91)).toBe('R');
  });
});

describe('rule evaluation', () => {
  it('raises, escalates, eases and resolves at once without a recovery level or duration', () => {
    expect(path(run([rule()], [batch([50, 75, 95, 80, 40])]))).toEqual([
      'G>Y@75',
      'Y>R@95',
      'R>Y@80',
      'Y>G@40',
    ]);
  });

  it('holds an open alert until the value crosses the recovery level (hysteresis)', () => {
    const r = rule({ warning: null, critical: 90, recovery: 80 });
    expect(path(run([r], [batch([95, 89, 85, 91, 79])]))).toEqual(['G>R@95', 'R>G@79']);
  });

  it('waits for the "for" duration before raising, and forgets a condition that stopped holding', () => {
    const r = rule({ warning: null, critical: 90, forMs: 30_000 });
    // 10 s apart: 95 95 50 (reset) 95 95 95 95 -> raised at the 4th sample of the second run.
    expect(path(run([r], [batch([95, 95, 50, 95, 95, 95, 95])]))).toEqual(['G>R@95']);
    const t = run([r], [batch([95, 95, 50, 95, 95, 95, 95])])[0]!;
    expect(t.ts).toBe(T0 + 6 * 10_000);
  });

  it('counts a pending yellow that turns red from when yellow began', () => {
    const r = rule({ forMs: 20_000 });
    const out = run([r], [batch([75, 95, 95])]);
    expect(path(out)).toEqual(['G>R@95']);
    expect(out[0]!.ts).toBe(T0 + 20_000);
  });

  it('keeps series of one rule apart by host, service and labels', () => {
    const r = rule({ metric: 'disk.used_pct', warning: 80, critical: 95 });
    const out = run(
      [r],
      [
        {
          v: 1,
          tenant: 't1',
          host: 'h1',
          source: 'agent',
          ts: T0,
          samples: [
            { m: 'disk.used_pct', l: { mount: '/' }, v: 85 },
            { m: 'disk.used_pct', l: { mount: '/data' }, v: 97 },
          ],
        },
        { ...batch([85], {}, 'disk.used_pct'), host: 'h2' },
      ],
    );
    expect(out.map((t) => `${t.host}:${t.labels}:${t.to}`)).toEqual([
      'h1:mount=/:Y',
      'h1:mount=/data:R',
      'h2::Y',
    ]);
  });

  it('matches only the host, service and labels a rule names', () => {
    const r = rule({ host: 'h2', metric: 'disk.used_pct', labels: { mount: '/' } });
    const out = run(
      [r],
      [
        { ...batch([99], {}, 'disk.used_pct'), samples: [{ m: 'disk.used_pct', l: { mount: '/' }, v: 99 }] },
        {
          ...batch([99], { host: 'h2' }, 'disk.used_pct'),
          samples: [
            { m: 'disk.used_pct', l: { mount: '/data' }, v: 99 },
            { m: 'disk.used_pct', l: { mount: '/', fs: 'ext4' }, v: 99 },
          ],
        },
      ],
    );
    expect(out.map((t) => `${t.host}:${t.labels}`)).toEqual(['h2:fs=ext4,mount=/']);
    const svc = rule({ service: 'mysql' });
    expect(run([svc], [batch([99])])).toEqual([]);
    expect(run([svc], [batch([99], { service: 'mysql' })])).toHaveLength(1);
  });

  it('never evaluates another tenant’s samples', () => {
    expect(run([rule()], [batch([99], { tenant: 't2' })])).toEqual([]);
  });

  it('ignores a late sample older than the last one seen and a NaN value', () => {
    const set = createRuleSet([rule()]);
    const out: RuleTransition[] = [];
    set.evaluate(batch([95]), (t) => out.push(t));
    set.evaluate({ ...batch([10]), samples: [{ m: 'cpu.used_pct', v: 10, t: T0 - 5_000 }] }, (t) =>
      out.push(t),
    );
    expect(path(out)).toEqual(['G>R@95']);
  });

  it('keeps states when a rule’s levels change, and starts over when it watches another metric', () => {
    const set = createRuleSet([rule()]);
    const out: RuleTransition[] = [];
    set.evaluate(batch([95]), (t) => out.push(t));
    set.upsert(rule({ critical: 97 }));
    set.evaluate({ ...batch([96]), samples: [{ m: 'cpu.used_pct', v: 96, t: T0 + 10_000 }] }, (t) =>
      out.push(t),
    );
    expect(path(out)).toEqual(['G>R@95', 'R>Y@96']);
    set.upsert(rule({ metric: 'cpu.iowait' }));
    expect(set.states()).toEqual([]);
    set.remove(1);
    expect(set.rules()).toEqual([]);
  });

  it('restores persisted states so a restart raises nothing twice', () => {
    const first = createRuleSet([rule()]);
    first.evaluate(batch([95]), () => {});
    const saved = first.states();
    expect(saved).toHaveLength(1);
    const second = createRuleSet([rule()]);
    for (const s of saved) second.restore(s.ruleId, s.host, s.service, s.labels, s.state);
    const out: RuleTransition[] = [];
    second.evaluate({ ...batch([96]), samples: [{ m: 'cpu.used_pct', v: 96, t: T0 + 10_000 }] }, (t) =>
      out.push(t),
    );
    expect(out).toEqual([]);
  });

  it('step() reports no change for a NaN', () => {
    const st = { level: 'G' as const, pending: 'G' as const, pendingSince: 0, value: 0, ts: 0 };
    expect(step(rule(), st, Number.NaN, T0)).toBeNull();
  });
});

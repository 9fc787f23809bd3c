import { createRuleSet, type RuleTransition, type ThresholdRule } from '@flightdeck/collector';
import type { MetricBatch } from '@flightdeck/schemas';
import { type Benchmark, type Figure, percentile, round } from './harness';

const HOSTS = 1_000;
/** Per host: 50 metrics x 10 devices, as the ingest benchmark's agents send. */
const METRICS = 50;
const DEVICES = 10;
/** 10 rules per host (on 10 of its metrics) = 10,000 active rules. */
const RULED_METRICS = 10;
const ROUNDS = 12;
const RUNS = 3;

function rules(): ThresholdRule[] {
  const out: ThresholdRule[] = [];
  let id = 1;
  for (let h = 0; h < HOSTS; h++) {
    for (let m = 0; m < RULED_METRICS; m++) {
      out.push({
        id: id++,
        tenant: 'bench',
        host: `host-${h}`,
        service: null,
        metric: `bench.metric_${m}`,
        labels: null,
        operator: 'gt',
        warning: 80,
        critical: 95,
        recovery: 70,
        forMs: 30_000,
      });
    }
  }
  return out;
}

function batches(round: number): MetricBatch[] {
  const out: MetricBatch[] = [];
  for (let h = 0; h < HOSTS; h++) {
    const samples: MetricBatch['samples'] = [];
    for (let i = 0; i < METRICS * DEVICES; i++) {
      samples.push({
        m: `bench.metric_${i % METRICS}`,
        l: { dev: `d${Math.floor(i / METRICS)}` },
        v: Math.random() * 100,
      });
    }
    out.push({
      v: 1,
      tenant: 'bench',
      host: `host-${h}`,
      source: 'agent',
      ts: 1_800_000_000_000 + round * 10_000,
      samples,
    });
  }
  return out;
}

/** Samples per second through the rule set with 10,000 active rules (one core, no I/O). */
function evalRate(): number {
  const set = createRuleSet(rules());
  // Two sets of values, alternated round after round with the time moving on.
  const sets = [batches(0), batches(1)];
  const input = Array.from({ length: ROUNDS }, (_, r) =>
    sets[r % 2]!.map((b) => ({ ...b, ts: 1_800_000_000_000 + r * 10_000 })),
  );
  let transitions = 0;
  const count = () => {
    transitions++;
  };
  for (const b of input[0]!) set.evaluate(b, count); // warm-up: series states exist
  const started = process.hrtime.bigint();
  for (let r = 1; r < ROUNDS; r++) for (const b of input[r]!) set.evaluate(b, count);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (transitions === 0) throw new Error('no rule ever fired: the benchmark input is wrong');
  return ((ROUNDS - 1) * HOSTS * METRICS * DEVICES) / seconds;
}

/**
 * A replayed day of CPU at 10 s around a threshold of 90: ordinary load near 80 with noise that
 * pokes above 90 for a sample or two every few minutes, and real incidents: stretches of 5 to 20
 * minutes at 95 and more. A plain threshold (no recovery level, no duration) against the same
 * threshold with recovery 85 and "for" 60 s.
 */
function flapReplay(): { plain: number; tuned: number; missed: number; incidents: number } {
  let seed = 42;
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  // Roughly normal noise: the sum of four uniforms, centred, standard deviation about 5.8.
  const noise = () => (rand() + rand() + rand() + rand() - 2) * 10;
  const samples: { v: number; t: number }[] = [];
  const incidents: { from: number; to: number }[] = [];
  const t0 = 1_800_000_000_000;
  const day = 8_640;
  let i = 0;
  while (i < day) {
    if (rand() < 0.003) {
      const len = 30 + Math.floor(rand() * 90); // 5 to 20 minutes
      incidents.push({ from: t0 + i * 10_000, to: t0 + (i + len) * 10_000 });
      for (let k = 0; k < len && i < day; k++, i++) samples.push({ v: 95 + rand() * 5, t: t0 + i * 10_000 });
    } else {
      samples.push({ v: Math.min(100, 80 + noise()), t: t0 + i * 10_000 });
      i++;
    }
  }
  const base: ThresholdRule = {
    id: 1,
    tenant: 't',
    host: null,
    service: null,
    metric: 'cpu.used_pct',
    labels: null,
    operator: 'gt',
    warning: null,
    critical: 90,
    recovery: null,
    forMs: 0,
  };
  const replay = (r: ThresholdRule) => {
    const set = createRuleSet([r]);
    const raised: RuleTransition[] = [];
    for (const s of samples) {
      set.evaluate(
        { v: 1, tenant: 't', host: 'h', source: 'import', ts: s.t, samples: [{ m: 'cpu.used_pct', v: s.v }] },
        (t) => {
          if (t.to === 'R') raised.push(t);
        },
      );
    }
    return raised;
  };
  const plain = replay(base).length;
  const tunedRaised = replay({ ...base, id: 2, recovery: 85, forMs: 60_000 });
  // An incident is caught when an alert is open during it: raised inside it, or still open from before.
  const tunedSet = createRuleSet([{ ...base, id: 2, recovery: 85, forMs: 60_000 }]);
  const openAt = new Map<number, boolean>();
  for (const s of samples) {
    tunedSet.evaluate(
      { v: 1, tenant: 't', host: 'h', source: 'import', ts: s.t, samples: [{ m: 'cpu.used_pct', v: s.v }] },
      () => {},
    );
    openAt.set(
      s.t,
      tunedSet.states().some((st) => st.state.level === 'R'),
    );
  }
  let missed = 0;
  for (const inc of incidents) {
    let caught = false;
    for (let t = inc.from; t < inc.to; t += 10_000) if (openAt.get(t)) caught = true;
    if (!caught) missed++;
  }
  return { plain, tuned: tunedRaised.length, missed, incidents: incidents.length };
}

/** Alert engine figures (issue: alert engine): evaluation speed and flap reduction. */
export const benchmark: Benchmark = {
  figures: ['alerts.eval', 'alerts.flap_reduction_pct', 'alerts.incidents_missed'],
  async run() {
    const rates: number[] = [];
    for (let i = 0; i < RUNS; i++) rates.push(evalRate());
    rates.sort((a, b) => a - b);
    const flap = flapReplay();
    const figures: Figure[] = [
      { name: 'alerts.eval', value: Math.round(percentile(rates, 50)), unit: 'samples/s' },
      {
        name: 'alerts.flap_reduction_pct',
        value: round(100 * (1 - flap.tuned / flap.plain), 1),
        unit: `% fewer notifications (${flap.tuned} vs ${flap.plain} plain)`,
      },
      { name: 'alerts.incidents_missed', value: flap.missed, unit: `of ${flap.incidents} incidents` },
    ];
    return figures;
  },
};

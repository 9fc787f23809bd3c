import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AlertTransitionsParams,
  type CommandReply,
  type CommandRequest,
  type MetricBatch,
  type WireAlertRule,
  type WireRuleState,
  type WireRuleTransition,
} from '@flightdeck/schemas';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBus, type InProcessBus, type Subscription } from '../bus/index';
import { waitFor } from '../notify/test-servers';
import { createSqliteStore } from '../store/sqlite';
import { ALERTS_WORKER, type AlertEngine, startAlertEngine } from './engine';

const logger = pino({ level: 'silent' });

function rule(over: Partial<WireAlertRule> = {}): WireAlertRule {
  return {
    id: 1,
    tenant: 't1',
    host: null,
    except_hosts: [],
    service: null,
    metric: 'cpu.total',
    labels: null,
    mode: 'defined',
    operator: 'gt',
    warning: 50,
    critical: 90,
    recovery: null,
    for_ms: 0,
    sensitivity: null,
    direction: null,
    min_deviation: 0,
    ...over,
  };
}

function batch(host: string, v: number, ts: number): MetricBatch {
  return { v: 1, tenant: 't1', host, source: 'agent', ts, samples: [{ m: 'cpu.total', v }] };
}

/**
 * The api's side of the two commands, served on the real bus: rules and states the test sets,
 * transitions and checkpoints it records.
 */
function apiOn(bus: InProcessBus, rules: WireAlertRule[], states: WireRuleState[] = []) {
  const received: WireRuleTransition[] = [];
  const checkpoints: WireRuleState[] = [];
  const serve = () =>
    bus.serveCommands(ALERTS_WORKER, async (req: CommandRequest): Promise<CommandReply> => {
      const ok = (data: unknown): CommandReply => ({ v: 1, id: req.id, status: 'ok', data, ts: Date.now() });
      if (req.command === 'alert_rules') return ok({ version: 'v1', rules, states, refresh_ms: 60_000 });
      const params = AlertTransitionsParams.parse(req.params);
      received.push(...params.transitions);
      checkpoints.push(...(params.states ?? []));
      return ok({ applied: params.transitions.length, version: 'v1' });
    });
  return { received, checkpoints, serve };
}

describe('alert engine', () => {
  let bus: InProcessBus;
  let engine: AlertEngine | undefined;
  let serving: Subscription | undefined;
  afterEach(async () => {
    await serving?.unsubscribe();
    await engine?.stop();
    await bus.close();
    serving = undefined;
    engine = undefined;
  });

  it('leaves a host with its own rule to that rule and restores open levels without raising them again', async () => {
    bus = createInProcessBus({ logger });
    const api = apiOn(
      bus,
      [rule({ except_hosts: ['db-1'] })],
      [
        {
          rule_id: 1,
          tenant: 't1',
          host: 'web-2',
          service: '',
          labels: '',
          level: 'R',
          pending: 'G',
          pending_since: 0,
        },
      ],
    );
    serving = await api.serve();
    engine = await startAlertEngine({ bus, logger });
    const ts = 1_800_000_000_000;
    engine.evaluate([batch('db-1', 99, ts), batch('web-1', 95, ts), batch('web-2', 95, ts)]);
    await engine.flush();
    // db-1 has its own rule; web-2 was already red before the restart.
    expect(api.received.map((t) => [t.host, t.from, t.to])).toEqual([['web-1', 'G', 'R']]);
    engine.evaluate([batch('web-2', 10, ts + 1_000)]);
    await engine.flush();
    expect(api.received.map((t) => [t.host, t.from, t.to])).toEqual([
      ['web-1', 'G', 'R'],
      ['web-2', 'R', 'G'],
    ]);
  });

  it("watches a host's total CPU, not each core, unless the rule names a core", async () => {
    bus = createInProcessBus({ logger });
    const api = apiOn(bus, [rule({ host: 'web-1' }), rule({ id: 2, host: 'web-1', labels: { core: '1' } })]);
    serving = await api.serve();
    engine = await startAlertEngine({ bus, logger });
    const ts = 1_800_000_000_000;
    engine.evaluate([
      {
        v: 1,
        tenant: 't1',
        host: 'web-1',
        source: 'agent',
        ts,
        samples: [
          { m: 'cpu.total', v: 40 },
          { m: 'cpu.total', v: 99, l: { core: '0' } },
          { m: 'cpu.total', v: 95, l: { core: '1' } },
        ],
      },
    ]);
    await engine.flush();
    expect(api.received.map((t) => [t.rule_id, t.labels, t.to])).toEqual([[2, 'core=1', 'R']]);
  });

  it('keeps level changes while the api cannot be reached and delivers them in order once it answers', async () => {
    bus = createInProcessBus({ logger });
    const api = apiOn(bus, [rule({ for_ms: 30_000 })]);
    serving = await api.serve();
    engine = await startAlertEngine({ bus, logger, checkpointMs: 50 });
    const ts = 1_800_000_000_000;
    engine.evaluate([batch('web-1', 60, ts)]);
    // The 30 s duration that started at ts reaches the api as a checkpoint, for a restart.
    await waitFor(
      () => api.checkpoints.some((s) => s.pending === 'Y' && s.pending_since === ts),
      'the checkpoint of the running duration',
    );
    await serving.unsubscribe();
    serving = undefined;
    engine.evaluate([batch('web-1', 60, ts + 30_000)]);
    engine.evaluate([batch('web-1', 95, ts + 31_000)]);
    engine.evaluate([batch('web-1', 95, ts + 61_000)]);
    engine.evaluate([batch('web-1', 10, ts + 62_000)]);
    await waitFor(() => engine!.stats().send_errors > 0, 'a failed delivery');
    expect(engine.stats().transitions_queued).toBe(3);
    serving = await api.serve();
    await waitFor(() => api.received.length === 3, 'the queued transitions', 15_000);
    expect(api.received.map((t) => [t.from, t.to, t.ts - ts])).toEqual([
      ['G', 'Y', 30_000],
      ['Y', 'R', 61_000],
      ['R', 'G', 62_000],
    ]);
    expect(engine.stats().transitions_queued).toBe(0);
  }, 20_000);

  it('sends the band, season, algorithm and score with a dynamic level change, and nothing extra with a defined one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-engine-test-'));
    const store = createSqliteStore({ path: join(dir, 'metrics.db') });
    try {
      const now = Date.now();
      const MIN = 60_000;
      // Three days of web-1's CPU around 20% (18-22), one sample a minute: enough for the hour of the day.
      const samples: MetricBatch['samples'] = [];
      for (let t = now - 3 * 86_400_000, i = 0; t < now; t += MIN, i++) {
        samples.push({ m: 'cpu.total', v: 18 + (i % 5), t });
      }
      await store.write([{ v: 1, tenant: 't1', host: 'web-1', source: 'agent', ts: now, samples }]);
      bus = createInProcessBus({ logger });
      const api = apiOn(bus, [
        rule({
          host: 'web-1',
          mode: 'dynamic',
          warning: null,
          critical: null,
          sensitivity: 3,
          direction: 'above',
        }),
        rule({ id: 2, host: 'web-2' }),
      ]);
      serving = await api.serve();
      engine = await startAlertEngine({ bus, logger, store });
      let ts = now + 1_000;
      // The band is learnt in the background once the rule arrives: judge samples until it is armed.
      await waitFor(
        async () => {
          engine!.evaluate([batch('web-1', 95, ts++)]);
          await engine!.flush();
          return api.received.length > 0;
        },
        'the dynamic threshold to fire',
        15_000,
      );
      engine.evaluate([batch('web-2', 95, ts)]);
      await engine.flush();

      const [dyn, defined] = api.received;
      expect(dyn).toMatchObject({ rule_id: 1, host: 'web-1', from: 'G', to: 'R', value: 95 });
      const reason = dyn!.dynamic!;
      expect(reason).toMatchObject({
        algorithm: 'seasonal-median-mad',
        season: 'hour_of_day',
        season_key: String(new Date(ts).getUTCHours()).padStart(2, '0'),
      });
      expect(reason.band.median).toBeGreaterThanOrEqual(18);
      expect(reason.band.median).toBeLessThanOrEqual(22);
      expect(reason.band.lower).toBeLessThan(reason.band.median);
      expect(reason.band.upper).toBeGreaterThan(reason.band.median);
      expect(reason.band.upper).toBeLessThan(95);
      expect(reason.score).toBeGreaterThan(3);
      expect(defined).toMatchObject({ rule_id: 2, host: 'web-2', to: 'R' });
      expect(defined).not.toHaveProperty('dynamic');
    } finally {
      await engine?.stop();
      engine = undefined;
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

import { waitFor } from '@flightdeck/collector/testing';
import {
  AlertInfoData,
  ChangeAlertStatusData,
  EmailIntegration,
  HistoricUnavailableData,
  ListAlertStatusData,
  ListSpecificDiskConfigData,
  SpecificDiskConfig,
  UnavailableMark,
  type WireRuleTransition,
} from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../db/kysely';
import { createServer } from '../../db/queries/servers';
import { expectError, expectOk } from '../auth/test-app';
import { type AlertHarness, startAlertHarness } from './test-harness';

const ALERTS = '/services_monitored/alerts';
/** Unix ms the transitions of this suite start at. */
const T0 = 1_803_000_000_000;

/**
 * Mutes, dependencies, unavailability and per-mount disk thresholds, per metadata DB engine:
 * level changes go through the api's alert service as a collector sends them, and notifications
 * to a local SMTP server.
 */
export function alertMutesSuite(engine: Engine) {
  describe(`alert mutes, dependencies and disk thresholds on ${engine}`, () => {
    let h: AlertHarness;
    let unreachable: number;
    let cpu: number;
    let ts = T0;

    async function addThreshold(metric: string, typeId: number, operator: string, red: number) {
      const row = await h.t.db
        .insertInto('alert_thresholds')
        .values({
          customer_id: h.a.customerId,
          server_id: h.a.serverId,
          service: '',
          metric,
          labels: '',
          scope_key: `${h.a.serverId}|${metric}|mutes`,
          mode: 'defined',
          operator,
          yellow: null,
          red,
          recovery: null,
          for_s: 0,
          type_id: typeId,
          enabled: 1,
          created_at: Math.floor(T0 / 1000),
          updated_at_ms: T0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }

    /** One level change of a's server, as a collector sends it. */
    async function change(ruleId: number, metric: string, from: 'G' | 'R', to: 'G' | 'R', value: number) {
      ts += 60_000;
      const t: WireRuleTransition = {
        rule_id: ruleId,
        tenant: String(h.a.customerId),
        host: h.a.hostKey,
        service: '',
        metric,
        labels: '',
        from,
        to,
        value,
        ts,
      };
      return h.alerts.applyTransitions({ collector_id: 'mutes-suite', transitions: [t] });
    }
    const openOf = (thresholdId: number) =>
      h.t.db.selectFrom('alerts').selectAll().where('threshold_id', '=', thresholdId).executeTakeFirst();
    const queuedFor = async (historicId: number) =>
      (await h.t.db.selectFrom('notification_outbox').select('notification_id').execute()).filter((n) =>
        n.notification_id.startsWith(`${historicId}:`),
      ).length;

    beforeAll(async () => {
      h = await startAlertHarness(engine);
      const res = await h.call('POST', '/integrations/integration/email/register', {
        address: 'ops@example.com',
      });
      await expectOk(res, EmailIntegration);
      unreachable = await addThreshold('service.up', 1, 'lt', 1);
      cpu = await addThreshold('cpu.total', 10, 'gt', 80);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('raises nothing for an alert type turned off on the server, and raises it again once turned back on', async () => {
      const off = await h.call('POST', `${ALERTS}/change_alert_status`, {
        id: 10,
        enabled: false,
        server_id: h.a.serverId,
      });
      expect((await expectOk(off, ChangeAlertStatusData)).data).toEqual({
        type_id: 10,
        server_id: h.a.serverId,
        enabled: false,
      });
      expect(await change(cpu, 'cpu.total', 'G', 'R', 95)).toBe(0);
      expect(await openOf(cpu)).toBeUndefined();
      await expectError(
        await h.call('POST', `${ALERTS}/change_alert_status`, {
          id: 10,
          enabled: false,
          server_id: h.b.serverId,
        }),
        404,
        'not_found',
      );
      // Turned off for every server as well: turning it back on for the one server leaves it off.
      const all = await h.call('POST', `${ALERTS}/change_alert_status`, { id: 10, enabled: false });
      expect((await expectOk(all, ChangeAlertStatusData)).data).toEqual({
        type_id: 10,
        server_id: null,
        enabled: false,
      });
      const muted = async (token?: string) =>
        (
          await expectOk(await h.call('POST', `${ALERTS}/list_status`, {}, token), ListAlertStatusData)
        ).data.map(({ type_id, server_id }) => ({ type_id, server_id }));
      expect(await muted()).toEqual([
        { type_id: 10, server_id: null },
        { type_id: 10, server_id: h.a.serverId },
      ]);
      // Another customer sees none of them.
      expect(await muted(h.b.token)).toEqual([]);
      const on = await h.call('POST', `${ALERTS}/change_alert_status`, {
        id: 10,
        enabled: true,
        server_id: h.a.serverId,
      });
      expect((await expectOk(on, ChangeAlertStatusData)).data.enabled).toBe(true);
      expect(await muted()).toEqual([{ type_id: 10, server_id: null }]);
      expect(await change(cpu, 'cpu.total', 'G', 'R', 95)).toBe(0);
      await expectOk(
        await h.call('POST', `${ALERTS}/change_alert_status`, { id: 10, enabled: true }),
        ChangeAlertStatusData,
      );
      expect(await muted()).toEqual([]);
      expect(await change(cpu, 'cpu.total', 'G', 'R', 95)).toBe(1);
      expect(await openOf(cpu)).toMatchObject({ type_id: 10, level: 'R' });
      expect(await change(cpu, 'cpu.total', 'R', 'G', 10)).toBe(1);
    });

    it('raises nothing for a server marked unavailable and lists the mark', async () => {
      const set = await h.call('POST', `${ALERTS}/set_unavailable`, { server_id: h.a.serverId });
      const mark = (await expectOk(set, UnavailableMark)).data;
      expect(mark).toMatchObject({ server_id: h.a.serverId, service: null, unavailable: true });
      expect(await change(cpu, 'cpu.total', 'G', 'R', 95)).toBe(0);
      const listed = await h.call('POST', '/mttx/get_historic_unavailable', {
        start: 0,
        end: 4_000_000_000,
        server_id: h.a.serverId,
      });
      expect((await expectOk(listed, HistoricUnavailableData)).data.marked).toEqual([mark]);
      await expectError(
        await h.call('POST', `${ALERTS}/set_unavailable`, { server_id: h.a.serverId }, h.b.token),
        404,
        'not_found',
      );
      const removed = await h.call('POST', `${ALERTS}/remove_unavailable`, { server_id: h.a.serverId });
      expect((await expectOk(removed, UnavailableMark)).data).toMatchObject({
        unavailable: false,
        since: null,
      });
      expect(await change(cpu, 'cpu.total', 'G', 'R', 95)).toBe(1);
      expect(await change(cpu, 'cpu.total', 'R', 'G', 10)).toBe(1);
    });

    it('records an alert opened while its server is unreachable quietly with its parent, and tells it once the server is back', async () => {
      const mails = (word: string) => h.smtp.received.filter((m) => m.text.includes(word)).length;
      expect(await change(unreachable, 'service.up', 'G', 'R', 0)).toBe(1);
      const parent = (await openOf(unreachable))!;
      await waitFor(() => mails('unreachable') >= 1, 'the unreachable e-mail');

      const cpuMailsBefore = mails('CPU at 97');
      expect(await change(cpu, 'cpu.total', 'G', 'R', 97)).toBe(1);
      const child = (await openOf(cpu))!;
      const info = await h.call('POST', '/alert/get_info', { historic_id: child.historic_id });
      expect((await expectOk(info, AlertInfoData)).data).toMatchObject({
        open: true,
        quiet: 'dependency',
        occurrence: { notified: false },
      });
      const history = await h.t.db
        .selectFrom('alert_history')
        .select(['parent_id', 'notified'])
        .where('id', '=', child.historic_id)
        .executeTakeFirstOrThrow();
      expect(history).toEqual({ parent_id: parent.historic_id, notified: 0 });
      expect(await queuedFor(child.historic_id)).toBe(0);

      // The server answers again with the CPU still high: the CPU alert is a problem of its own.
      expect(await change(unreachable, 'service.up', 'R', 'G', 1)).toBe(1);
      await waitFor(
        () => mails('CPU at 97') === cpuMailsBefore + 1,
        'the CPU e-mail once the server is back',
      );
      expect(await queuedFor(child.historic_id)).toBe(1);

      const periods = await h.call('POST', '/mttx/get_historic_unavailable', {
        start: Math.floor(T0 / 1000),
        end: Math.floor(ts / 1000) + 60,
      });
      expect((await expectOk(periods, HistoricUnavailableData)).data.periods).toEqual([
        expect.objectContaining({
          server_id: h.a.serverId,
          source: 'unreachable_alert',
          historic_id: parent.historic_id,
          seconds_in_range: 120,
        }),
      ]);
      expect(await change(cpu, 'cpu.total', 'R', 'G', 10)).toBe(1);
    });

    it('shows a server whose agent stopped sending heartbeats as unavailable since the last one', async () => {
      const server = await createServer(h.t.db, h.a.customerId, { host_key: 'db-2', hostname: 'db-2' });
      const lastSeen = Math.floor(Date.now() / 1000) - 3_600;
      await h.t.db
        .updateTable('servers')
        .set({ last_seen_at: lastSeen, interval_s: 60 })
        .where('id', '=', server.id)
        .execute();
      const res = await h.call('POST', '/mttx/get_historic_unavailable', {
        start: lastSeen - 600,
        end: lastSeen + 600,
        server_id: server.id,
      });
      expect((await expectOk(res, HistoricUnavailableData)).data.periods).toEqual([
        {
          server_id: server.id,
          server_name: 'db-2',
          service: null,
          source: 'heartbeat',
          historic_id: null,
          start: lastSeen,
          end: null,
          seconds_in_range: 600,
        },
      ]);
    });

    it('keeps used-percent levels per mount as thresholds with the mount label', async () => {
      const save = (body: object, token?: string) =>
        h.call('POST', '/specific_disk_config/update_especific_disk_config', body, token);
      const data = (
        await expectOk(
          await save({ server_id: h.a.serverId, mount: '/var', yellow: 80, red: 90, enabled: true }),
          SpecificDiskConfig,
        )
      ).data;
      expect(data).toMatchObject({ mount: '/var', yellow: 80, red: 90, enabled: true });
      const again = (
        await expectOk(
          await save({ server_id: h.a.serverId, mount: '/var', yellow: 85, red: 95, enabled: false }),
          SpecificDiskConfig,
        )
      ).data;
      expect(again.threshold_id).toBe(data.threshold_id);
      await expectOk(
        await save({ server_id: h.a.serverId, mount: '/', yellow: null, red: 97, enabled: true }),
        SpecificDiskConfig,
      );
      const list = await h.call('POST', '/specific_disk_config/list_specific_disk_config', {
        server_id: h.a.serverId,
      });
      expect((await expectOk(list, ListSpecificDiskConfigData)).data).toEqual([
        expect.objectContaining({ mount: '/', yellow: null, red: 97, enabled: true }),
        {
          threshold_id: data.threshold_id,
          server_id: h.a.serverId,
          mount: '/var',
          yellow: 85,
          red: 95,
          enabled: false,
        },
      ]);
      const row = await h.t.db
        .selectFrom('alert_thresholds')
        .selectAll()
        .where('id', '=', data.threshold_id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ metric: 'disk.used_pct', operator: 'gt' });
      expect(JSON.parse(row.labels)).toEqual({ mount: '/var' });
      await expectError(
        await save({ server_id: h.a.serverId, mount: '/', yellow: 90, red: 80, enabled: true }),
        400,
        'validation_failed',
      );
      await expectError(
        await h.call('POST', '/specific_disk_config/list_specific_disk_config', { server_id: h.b.serverId }),
        404,
        'not_found',
      );
    });
  });
}

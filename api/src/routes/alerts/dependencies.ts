import type { Logger } from 'pino';
import type { Db } from '../../db/kysely';
import type { Server } from '../../db/types';
import { serverStatus } from '../servers/shared';

/** The alert type of "server unreachable": the parent of a dependency. */
export const UNREACHABLE_TYPE_ID = 1;

/**
 * Why an alert change is held back, if it is:
 * - `muted`: the alert type is turned off for the server (or all servers), or the server or the
 *   service is marked intentionally unavailable. A new alert is not raised at all; an alert that
 *   was already open goes on being recorded, quietly.
 * - `dependency`: the server is unreachable, so the alert is recorded with the "server
 *   unreachable" alert it depends on (`parentId`; null when the agent's heartbeats stopped and
 *   no such alert is open) and not told.
 */
export type Hold =
  | { kind: 'muted'; reason: 'disabled' | 'unavailable' }
  | { kind: 'dependency'; parentId: number | null };

/**
 * Mutes (`alert_mutes`) and dependencies, as the alert core asks about each change.
 *
 * An alert depends on an open "server unreachable" alert (type 1) of the same server that is on
 * the whole server (no service) or on the alert's own service (an unreachable database's other
 * alerts), and on the server being down by heartbeat when it has an agent (a server without one
 * has never sent a heartbeat and is never down by that). A type 1 alert of the whole server
 * depends on nothing. A lookup that fails holds nothing back, with an error logged: telling too
 * much beats hiding an alert.
 */
export function holdLookup(db: Db, logger: Logger) {
  async function mutedBy(customerId: number, serverId: number, service: string, typeId: number) {
    const row = await db
      .selectFrom('alert_mutes')
      .select('kind')
      .where('customer_id', '=', customerId)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('kind', '=', 'disabled'),
            eb('type_id', '=', typeId),
            eb.or([eb('server_id', 'is', null), eb('server_id', '=', serverId)]),
          ]),
          eb.and([
            eb('kind', '=', 'unavailable'),
            eb('server_id', '=', serverId),
            eb.or([eb('service', '=', ''), eb('service', '=', service)]),
          ]),
        ]),
      )
      .orderBy('kind', 'desc')
      .executeTakeFirst();
    return row?.kind;
  }

  async function parentOf(customerId: number, server: Server, service: string, typeId: number, nowS: number) {
    if (typeId === UNREACHABLE_TYPE_ID && service === '') return undefined;
    const parent = await db
      .selectFrom('alerts')
      .select('historic_id')
      .where('customer_id', '=', customerId)
      .where('server_id', '=', server.id)
      .where('type_id', '=', UNREACHABLE_TYPE_ID)
      .where((eb) =>
        typeId === UNREACHABLE_TYPE_ID
          ? eb('service', '=', '')
          : eb.or([eb('service', '=', ''), eb('service', '=', service)]),
      )
      .orderBy('service')
      .orderBy('id')
      .executeTakeFirst();
    if (parent) return parent.historic_id;
    if (server.last_seen_at !== null && serverStatus(server, nowS) === 'down') return null;
    return undefined;
  }

  return {
    /** What holds back a change of an alert of `typeId` on `service` ('' for the server itself). */
    async holdFor(
      customerId: number,
      serverId: number,
      service: string,
      typeId: number,
      nowS: number,
    ): Promise<Hold | null> {
      try {
        const muted = await mutedBy(customerId, serverId, service, typeId);
        if (muted) return { kind: 'muted', reason: muted };
        const server = await db
          .selectFrom('servers')
          .selectAll()
          .where('customer_id', '=', customerId)
          .where('id', '=', serverId)
          .executeTakeFirst();
        if (!server) return null;
        const parentId = await parentOf(customerId, server, service, typeId, nowS);
        return parentId === undefined ? null : { kind: 'dependency', parentId };
      } catch (err) {
        logger.error(
          { err, tenant: customerId },
          'alert mutes and dependencies could not be read; the change is told',
        );
        return null;
      }
    },
  };
}

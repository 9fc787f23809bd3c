import {
  type BlockedSession,
  type DatabaseSize,
  type DbSession,
  MAX_LISTED_SESSIONS,
  type PollerExtras,
  type ReplicationMember,
  type ReplicationStatus,
} from '@flightdeck/schemas';
import { BSON } from 'mongodb';
import type { PollSample } from './contract';
import { hitRatio, num, ratePerSecond, round, str } from './rates';

/**
 * Pure reading of what the MongoDB driver answers (serverStatus, replSetGetStatus, the documents
 * of `$currentOp`, dbStats) into typed readings, samples and the poll's lists. Documents arrive
 * as the driver deserializes them: int64 values as numbers, dates as Date, optimes with a BSON
 * Timestamp.
 */

export type Doc = Record<string, unknown>;

/** What serverStatus says about the process and the replica set it belongs to. */
export interface MongoStatus {
  version: string;
  process: string;
  uptime_s: number | null;
  /** serverStatus.repl: present on a member started with a replica set name. */
  set_name: string | null;
  /** Numbers of serverStatus by their dotted path (`connections.current`). */
  values: ReadonlyMap<string, number>;
}

/** One member of a replica set, as replSetGetStatus lists it. */
export interface MongoMemberRow {
  id: number;
  name: string;
  state: number;
  state_str: string;
  healthy: boolean;
  self: boolean;
  uptime_s: number | null;
  optime_ms: number | null;
  ping_ms: number | null;
  sync_source: string | null;
  message: string | null;
}

/** replSetGetStatus: the set, the polled member's state and every member. */
export interface MongoReplSet {
  set_name: string;
  my_state: number;
  members: MongoMemberRow[];
}

/** One operation of `$currentOp`. */
export interface MongoOperation {
  opid: number;
  desc: string | null;
  client: string | null;
  app: string | null;
  user: string | null;
  database: string | null;
  ns: string | null;
  op: string | null;
  active: boolean;
  duration_s: number | null;
  waiting_for_lock: boolean;
  /** Lock resource type → mode held or wanted: r (IS), w (IX), R (S), W (X). */
  locks: Readonly<Record<string, string>>;
  command: Doc | null;
}

/**
 * Everything one poll read. `replSet` is null on a server outside a replica set, undefined when it
 * could not be read.
 */
export interface MongoReading {
  status: MongoStatus;
  replSet?: MongoReplSet | null | undefined;
  operations?: MongoOperation[] | undefined;
  sizes?: DatabaseSize[] | undefined;
}

function at(doc: unknown, path: readonly string[]): unknown {
  let node: unknown = doc;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Doc)[key];
  }
  return node;
}

const MB = 1024 * 1024;

/** serverStatus paths read as numbers. */
const STATUS_PATHS: readonly (readonly string[])[] = [
  ['connections', 'current'],
  ['connections', 'available'],
  ['connections', 'active'],
  ['connections', 'totalCreated'],
  ...['insert', 'query', 'update', 'delete', 'getmore', 'command'].map((k) => ['opcounters', k]),
  ...['insert', 'query', 'update', 'delete', 'getmore', 'command'].map((k) => ['opcountersRepl', k]),
  ...['reads', 'writes', 'commands'].flatMap((k) => [
    ['opLatencies', k, 'latency'],
    ['opLatencies', k, 'ops'],
  ]),
  ['wiredTiger', 'cache', 'bytes currently in the cache'],
  ['wiredTiger', 'cache', 'maximum bytes configured'],
  ['wiredTiger', 'cache', 'tracked dirty bytes in the cache'],
  ['wiredTiger', 'cache', 'pages requested from the cache'],
  ['wiredTiger', 'cache', 'pages read into cache'],
  ['wiredTiger', 'cache', 'bytes read into cache'],
  ['wiredTiger', 'cache', 'bytes written from cache'],
  ['globalLock', 'currentQueue', 'readers'],
  ['globalLock', 'currentQueue', 'writers'],
  ['globalLock', 'activeClients', 'readers'],
  ['globalLock', 'activeClients', 'writers'],
  ...['regular', 'warning', 'msg', 'user'].map((k) => ['asserts', k]),
  ['network', 'bytesIn'],
  ['network', 'bytesOut'],
  ['network', 'numRequests'],
  ['mem', 'resident'],
  ['mem', 'virtual'],
  ...['returned', 'inserted', 'updated', 'deleted'].map((k) => ['metrics', 'document', k]),
  ['metrics', 'operation', 'writeConflicts'],
  ['metrics', 'cursor', 'open', 'total'],
];

/** Reads a serverStatus answer. */
export function readServerStatus(doc: Doc): MongoStatus {
  const values = new Map<string, number>();
  for (const path of STATUS_PATHS) {
    const v = num(at(doc, path));
    if (v !== undefined) values.set(path.join('.'), v);
  }
  const repl = at(doc, ['repl']);
  return {
    version: str(doc.version) ?? '',
    process: str(doc.process) ?? 'mongod',
    uptime_s: num(doc.uptime) ?? null,
    set_name: str(at(repl, ['setName'])),
    values,
  };
}

/** Unix ms of a date; the epoch, which replSetGetStatus gives a member it cannot reach, is unknown. */
function timeMs(value: unknown): number | null {
  if (!(value instanceof Date)) return null;
  const ms = value.getTime();
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

const text = (value: unknown) => {
  const s = str(value);
  return s ? s : null;
};

/** Reads a replSetGetStatus answer. */
export function readReplSetStatus(doc: Doc): MongoReplSet {
  const members = Array.isArray(doc.members) ? (doc.members as Doc[]) : [];
  return {
    set_name: str(doc.set) ?? '',
    my_state: num(doc.myState) ?? 0,
    members: members.map((m) => ({
      id: num(m._id) ?? 0,
      name: str(m.name) ?? '',
      state: num(m.state) ?? 0,
      state_str: str(m.stateStr) ?? '',
      healthy: num(m.health) === 1,
      self: m.self === true,
      uptime_s: num(m.uptime) ?? null,
      optime_ms: timeMs(m.optimeDate),
      ping_ms: num(m.pingMs) ?? null,
      sync_source: text(m.syncSourceHost),
      message: text(m.lastHeartbeatMessage) ?? text(m.infoMessage),
    })),
  };
}

/** Member states of replSetGetStatus that replicate from another member. */
const PRIMARY = 1;
const SECONDARY = 2;
const ARBITER = 7;

/**
 * Seconds each member's last applied operation is behind the primary's, as
 * rs.printSecondaryReplicationInfo() counts them: against the primary, or against the most recent
 * member when there is no primary. Null for the primary, arbiters and members whose optime is
 * unknown (unreachable).
 */
export function memberLags(set: MongoReplSet): Map<string, number | null> {
  const primary = set.members.find((m) => m.state === PRIMARY && m.optime_ms !== null);
  const known = set.members.map((m) => m.optime_ms).filter((t): t is number => t !== null);
  const reference = primary?.optime_ms ?? (known.length > 0 ? Math.max(...known) : null);
  const lags = new Map<string, number | null>();
  for (const m of set.members) {
    const replicates = m.state !== PRIMARY && m.state !== ARBITER;
    lags.set(
      m.name,
      replicates && reference !== null && m.optime_ms !== null
        ? round(Math.max(0, reference - m.optime_ms) / 1000)
        : null,
    );
  }
  return lags;
}

/** The members as the database screen lists them. */
export function replicationMembers(set: MongoReplSet): ReplicationMember[] {
  const lags = memberLags(set);
  return set.members.map((m) => ({
    id: m.id,
    name: m.name,
    state: m.state_str,
    healthy: m.healthy,
    self: m.self,
    uptime_s: m.uptime_s,
    optime_ms: m.optime_ms,
    lag_s: lags.get(m.name) ?? null,
    ping_ms: m.ping_ms,
    sync_source: m.sync_source,
    message: m.message,
  }));
}

/** Replication as the polled member sees it; a server outside a replica set is standalone. */
export function mongoReplication(set: MongoReplSet | null): ReplicationStatus {
  if (!set) {
    return { role: 'standalone', state: null, lag_s: null, source: null, last_error: null, replicas: [] };
  }
  const lags = memberLags(set);
  const self = set.members.find((m) => m.self);
  if (set.my_state === PRIMARY) {
    return {
      role: 'primary',
      state: self?.state_str ?? 'PRIMARY',
      lag_s: null,
      source: null,
      last_error: null,
      replicas: set.members
        .filter((m) => !m.self)
        .map((m) => ({
          name: m.name,
          address: m.name,
          state: m.state_str,
          sync_state: m.healthy ? 'healthy' : 'unreachable',
          lag_s: lags.get(m.name) ?? null,
          lag_bytes: null,
        })),
    };
  }
  return {
    role: 'replica',
    state: self?.state_str ?? null,
    lag_s: self ? (lags.get(self.name) ?? null) : null,
    source: self?.sync_source ?? null,
    last_error: self?.message ?? null,
    replicas: [],
  };
}

function locksOf(value: unknown): Record<string, string> {
  const locks: Record<string, string> = {};
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Doc)) if (typeof v === 'string') locks[k] = v;
  }
  return locks;
}

/** Reads one document of `$currentOp`. */
export function readOperation(doc: Doc): MongoOperation {
  const ns = text(doc.ns);
  const command = doc.command && typeof doc.command === 'object' ? (doc.command as Doc) : null;
  const micros = num(doc.microsecs_running);
  const users = Array.isArray(doc.effectiveUsers) ? (doc.effectiveUsers as Doc[]) : [];
  const opid = num(doc.opid) ?? num(/(\d+)$/.exec(str(doc.opid) ?? '')?.[1]) ?? 0;
  return {
    opid,
    desc: text(doc.desc),
    client: text(doc.client),
    app: text(doc.appName),
    user: text(users[0]?.user),
    database: (ns ? ns.split('.')[0] : null) || text(command?.$db),
    ns,
    op: text(doc.op),
    active: doc.active === true,
    duration_s: micros !== undefined ? round(micros / 1e6) : (num(doc.secs_running) ?? null),
    waiting_for_lock: doc.waitingForLock === true,
    locks: locksOf(doc.locks),
    command,
  };
}

/** How the poller's own operations are named (the driver's appName), to leave them out. */
export const MONGODB_APP_NAME = 'flightdeck-poller';

/** Operations of a client: not the server's own threads, not the poller's. */
function isClient(op: MongoOperation): boolean {
  return op.client !== null && op.app !== MONGODB_APP_NAME;
}

/**
 * Operations that wait on purpose and would pass for long queries: a driver's streaming `hello`
 * (it waits up to maxAwaitTimeMS for a topology change) and a secondary tailing the oplog.
 */
function waitsByDesign(op: MongoOperation): boolean {
  const c = op.command ?? {};
  if (('hello' in c || 'isMaster' in c || 'ismaster' in c) && 'maxAwaitTimeMS' in c) return true;
  return op.ns === 'local.oplog.rs' && (op.op === 'getmore' || 'getMore' in c);
}

function isLong(op: MongoOperation, longQueryS: number): boolean {
  return op.active && op.duration_s !== null && op.duration_s >= longQueryS && !waitsByDesign(op);
}

/** Lock modes each mode must wait for: IS waits for X; IX for S and X; S for IX and X; X for all. */
const CONFLICTS: Readonly<Record<string, string>> = { r: 'W', w: 'RW', R: 'wW', W: 'rwRW' };

/**
 * Whether `holder` holds a lock `waiter` waits for: a mode that conflicts with the one wanted on a
 * resource of the same scope (the same database, the same collection, or instance-wide).
 */
export function holdsLockFor(holder: MongoOperation, waiter: MongoOperation): boolean {
  if (holder.opid === waiter.opid || holder.waiting_for_lock) return false;
  for (const [resource, wanted] of Object.entries(waiter.locks)) {
    const held = holder.locks[resource];
    if (!held || !CONFLICTS[wanted]?.includes(held)) continue;
    if (resource === 'Database' && holder.database !== waiter.database) continue;
    if (resource === 'Collection' && holder.ns !== waiter.ns) continue;
    return true;
  }
  return false;
}

/** The statement of an operation as Extended JSON, cut to 2,048 characters. */
function statement(op: MongoOperation): string | null {
  if (!op.command) return null;
  const { lsid: _lsid, $clusterTime: _clusterTime, ...shown } = op.command;
  return BSON.EJSON.stringify(shown, { relaxed: true }).slice(0, 2048);
}

function session(op: MongoOperation): DbSession {
  return {
    id: op.opid,
    user: op.user,
    database: op.database,
    client: op.client ?? op.desc,
    application: op.app,
    state: op.op,
    wait: op.waiting_for_lock ? 'lock' : null,
    duration_s: op.duration_s,
    query: statement(op),
  };
}

const byDuration = (a: DbSession, b: DbSession) => (b.duration_s ?? -1) - (a.duration_s ?? -1);

/** The client operations of a reading: every one, the long ones, and those waiting for a lock. */
export function mongoSessionLists(
  operations: readonly MongoOperation[],
  longQueryS: number,
): { sessions: DbSession[]; long: DbSession[]; blocked: BlockedSession[]; total: number } {
  const clients = operations.filter(isClient);
  const blocked = operations
    .filter((op) => op.waiting_for_lock && op.app !== MONGODB_APP_NAME)
    .map((op) => ({
      ...session(op),
      wait_s: null,
      blocked_by: operations.filter((h) => holdsLockFor(h, op)).map(session),
    }));
  return {
    sessions: clients.map(session).sort(byDuration).slice(0, MAX_LISTED_SESSIONS),
    long: clients
      .filter((op) => isLong(op, longQueryS))
      .map(session)
      .sort(byDuration),
    blocked: blocked.sort(byDuration),
    total: clients.length,
  };
}

/** Reads a dbStats answer: the disk space of the database's collections and indexes. */
export function readDbStats(doc: Doc): DatabaseSize {
  const total = num(doc.totalSize);
  const storage = num(doc.storageSize) ?? 0;
  const indexes = num(doc.indexSize) ?? 0;
  return { name: str(doc.db) ?? '', size_bytes: total ?? storage + indexes };
}

const RATES: readonly [string, string][] = [
  ['connections.totalCreated', 'mongodb.connections_created_rate'],
  ['opcounters.insert', 'mongodb.inserts_rate'],
  ['opcounters.query', 'mongodb.queries_rate'],
  ['opcounters.update', 'mongodb.updates_rate'],
  ['opcounters.delete', 'mongodb.deletes_rate'],
  ['opcounters.getmore', 'mongodb.getmores_rate'],
  ['opcounters.command', 'mongodb.commands_rate'],
  ['network.numRequests', 'mongodb.requests_rate'],
  ['metrics.document.returned', 'mongodb.documents_returned_rate'],
  ['metrics.document.inserted', 'mongodb.documents_inserted_rate'],
  ['metrics.document.updated', 'mongodb.documents_updated_rate'],
  ['metrics.document.deleted', 'mongodb.documents_deleted_rate'],
  ['wiredTiger.cache.bytes read into cache', 'mongodb.cache_read_bytes_rate'],
  ['wiredTiger.cache.bytes written from cache', 'mongodb.cache_written_bytes_rate'],
  ['metrics.operation.writeConflicts', 'mongodb.write_conflicts_rate'],
  ['asserts.regular', 'mongodb.asserts_regular_rate'],
  ['asserts.warning', 'mongodb.asserts_warning_rate'],
  ['asserts.msg', 'mongodb.asserts_msg_rate'],
  ['asserts.user', 'mongodb.asserts_user_rate'],
  ['network.bytesIn', 'mongodb.network_in_bytes_rate'],
  ['network.bytesOut', 'mongodb.network_out_bytes_rate'],
];

const GAUGES: readonly [string, string][] = [
  ['connections.current', 'mongodb.connections_current'],
  ['connections.available', 'mongodb.connections_available'],
  ['connections.active', 'mongodb.connections_active'],
  ['wiredTiger.cache.bytes currently in the cache', 'mongodb.cache_used_bytes'],
  ['wiredTiger.cache.tracked dirty bytes in the cache', 'mongodb.cache_dirty_bytes'],
  ['wiredTiger.cache.maximum bytes configured', 'mongodb.cache_max_bytes'],
  ['globalLock.currentQueue.readers', 'mongodb.queued_readers'],
  ['globalLock.currentQueue.writers', 'mongodb.queued_writers'],
  ['globalLock.activeClients.readers', 'mongodb.active_readers'],
  ['globalLock.activeClients.writers', 'mongodb.active_writers'],
  ['metrics.cursor.open.total', 'mongodb.cursors_open'],
];

const LATENCIES: readonly [string, string][] = [
  ['reads', 'mongodb.read_latency_ms'],
  ['writes', 'mongodb.write_latency_ms'],
  ['commands', 'mongodb.command_latency_ms'],
];

const REPL_COUNTERS = ['insert', 'query', 'update', 'delete', 'getmore', 'command'].map(
  (k) => `opcountersRepl.${k}`,
);

function sum(values: ReadonlyMap<string, number>, keys: readonly string[]): number | undefined {
  let total = 0;
  for (const key of keys) {
    const v = values.get(key);
    if (v === undefined) return undefined;
    total += v;
  }
  return total;
}

/**
 * Samples of a reading: gauges always; per-second rates, mean latencies and the cache hit ratio
 * when an earlier reading is `seconds` before. A counter that went backwards (a restart) has no
 * rate this time.
 */
export function mongoSamples(
  cur: MongoReading,
  prev: MongoReading | undefined,
  seconds: number,
  longQueryS: number,
): PollSample[] {
  const s: PollSample[] = [];
  const v = cur.status.values;
  for (const [key, m] of GAUGES) {
    const value = v.get(key);
    if (value !== undefined) s.push({ m, v: value });
  }
  const current = v.get('connections.current');
  const available = v.get('connections.available');
  if (current !== undefined && available !== undefined && current + available > 0) {
    s.push({ m: 'mongodb.connections_used_pct', v: round((current / (current + available)) * 100, 2) });
  }
  const resident = v.get('mem.resident');
  if (resident !== undefined) s.push({ m: 'mongodb.mem_resident_bytes', v: resident * MB });
  const virtual = v.get('mem.virtual');
  if (virtual !== undefined) s.push({ m: 'mongodb.mem_virtual_bytes', v: virtual * MB });
  if (cur.status.uptime_s !== null) s.push({ m: 'mongodb.uptime', v: Math.round(cur.status.uptime_s) });
  if (cur.operations) {
    const lists = mongoSessionLists(cur.operations, longQueryS);
    s.push(
      { m: 'mongodb.long_queries', v: lists.long.length },
      { m: 'mongodb.blocked_sessions', v: lists.blocked.length },
    );
  }
  if (cur.replSet) {
    const set = cur.replSet;
    const lags = memberLags(set);
    s.push(
      { m: 'mongodb.is_primary', v: set.my_state === PRIMARY ? 1 : 0 },
      { m: 'mongodb.members', v: set.members.length },
      { m: 'mongodb.members_healthy', v: set.members.filter((m) => m.healthy).length },
    );
    for (const m of set.members) {
      const lag = lags.get(m.name);
      if (lag !== null && lag !== undefined)
        s.push({ m: 'mongodb.member_lag', l: { member: m.name }, v: lag });
    }
    const self = set.members.find((m) => m.self);
    const own = self ? lags.get(self.name) : undefined;
    if (set.my_state === SECONDARY && own !== null && own !== undefined) {
      s.push({ m: 'mongodb.replication_lag', v: own });
    }
  }
  for (const db of cur.sizes ?? []) {
    s.push({ m: 'mongodb.database_size_bytes', l: { database: db.name }, v: db.size_bytes });
  }
  if (!prev || !(seconds > 0)) return s;
  const p = prev.status.values;
  for (const [key, m] of RATES) {
    const rate = ratePerSecond(p.get(key), v.get(key), seconds);
    if (rate !== undefined) s.push({ m, v: rate });
  }
  const repl = ratePerSecond(sum(p, REPL_COUNTERS), sum(v, REPL_COUNTERS), seconds);
  if (repl !== undefined) s.push({ m: 'mongodb.repl_ops_rate', v: repl });
  for (const [kind, m] of LATENCIES) {
    const micros = ratePerSecond(
      p.get(`opLatencies.${kind}.latency`),
      v.get(`opLatencies.${kind}.latency`),
      1,
    );
    const ops = ratePerSecond(p.get(`opLatencies.${kind}.ops`), v.get(`opLatencies.${kind}.ops`), 1);
    if (micros !== undefined && ops !== undefined && ops > 0) s.push({ m, v: round(micros / ops / 1000) });
  }
  const requested = (r: ReadonlyMap<string, number>) =>
    r.get('wiredTiger.cache.pages requested from the cache');
  const readIn = (r: ReadonlyMap<string, number>) => r.get('wiredTiger.cache.pages read into cache');
  const hits = (r: ReadonlyMap<string, number>) => {
    const rq = requested(r);
    const rd = readIn(r);
    return rq === undefined || rd === undefined ? undefined : rq - rd;
  };
  const ratio = hitRatio(hits(p), hits(v), readIn(p), readIn(v));
  if (ratio !== undefined) s.push({ m: 'mongodb.cache_hit_ratio', v: ratio });
  return s;
}

/** The lists of a reading. */
export function mongoExtras(cur: MongoReading, longQueryS: number): PollerExtras {
  const v = cur.status.values;
  const current = v.get('connections.current');
  const available = v.get('connections.available');
  const extras: PollerExtras = {
    server: {
      version: cur.status.version,
      uptime_s: cur.status.uptime_s === null ? null : Math.round(cur.status.uptime_s),
      max_connections: current !== undefined && available !== undefined ? current + available : null,
    },
  };
  // Undefined when replSetGetStatus could not be read: the role is then unknown, not standalone.
  if (cur.replSet !== undefined) extras.replication = mongoReplication(cur.replSet);
  if (cur.operations) {
    const lists = mongoSessionLists(cur.operations, longQueryS);
    extras.sessions = lists.sessions;
    extras.long_queries = lists.long;
    extras.blocked_sessions = lists.blocked;
  }
  if (cur.sizes) extras.databases = [...cur.sizes].sort((a, b) => b.size_bytes - a.size_bytes);
  return extras;
}

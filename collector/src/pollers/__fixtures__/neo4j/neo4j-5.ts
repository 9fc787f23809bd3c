import { Integer, int, Record, types } from 'neo4j-driver';

/**
 * Answers of a Neo4j 5.26 Enterprise server to the Neo4j poller's queries, written by hand in the
 * shape neo4j-driver 5 returns them (Record objects; INTEGER as Integer, DURATION as Duration,
 * MAP as plain objects), with the columns the Neo4j 5 Operations and Cypher manuals document for
 * dbms.components(), SHOW DATABASES YIELD *, SHOW TRANSACTIONS YIELD *, dbms.listConnections()
 * and dbms.queryJmx() (metrics names of the Operations Manual's metrics reference). They are not
 * recordings of a server.
 *
 * The situation: a three-server cluster; the poller reaches server2, which hosts the `neo4j`
 * database as a follower (primary role, not the writer) 3 transactions behind. In the second
 * reading, 60 s after the first, transaction 38 holds a lock in an open transaction, 39 waits for
 * it, 40 runs a long read, 41 is the poller's own SHOW TRANSACTIONS.
 */

const record = (fields: { [key: string]: unknown }) => new Record(Object.keys(fields), Object.values(fields));
const seconds = (s: number, ns = 0) => new types.Duration(int(0), int(0), int(s), int(ns));

export const components = [record({ name: 'Neo4j Kernel', versions: ['5.26.0'], edition: 'enterprise' })];

function database(over: { [key: string]: unknown }) {
  return record({
    name: 'neo4j',
    type: 'standard',
    aliases: [],
    access: 'read-write',
    databaseID: 'A3C9B1E4F2D8C7E6A5B4C3D2E1F0A9B8C7D6E5F4A3B2C1D0E9F8A7B6C5D4E3F2',
    serverID: 'server-id',
    address: 'server1:7687',
    role: 'primary',
    writer: false,
    requestedStatus: 'online',
    currentStatus: 'online',
    statusMessage: '',
    default: true,
    home: true,
    currentPrimariesCount: int(2),
    currentSecondariesCount: int(1),
    requestedPrimariesCount: int(2),
    requestedSecondariesCount: int(1),
    creationTime: null,
    lastStartTime: null,
    lastStopTime: null,
    store: 'block-block-1.1',
    lastCommittedTxn: int(1042),
    replicationLag: int(0),
    constituents: [],
    options: {},
    ...over,
  });
}

export const databases = [
  database({ address: 'server1:7687', writer: true, serverID: 'd1b2c3e4' }),
  database({
    address: 'server2:7687',
    serverID: 'e5f6a7b8',
    lastCommittedTxn: int(1039),
    replicationLag: int(-3),
  }),
  database({ address: 'server3:7687', role: 'secondary', serverID: 'c9d0e1f2', lastCommittedTxn: int(1042) }),
  database({
    name: 'system',
    type: 'system',
    address: 'server1:7687',
    writer: true,
    default: false,
    home: false,
    replicationLag: int(0),
  }),
  database({ name: 'system', type: 'system', address: 'server2:7687', default: false, home: false }),
  database({
    name: 'system',
    type: 'system',
    address: 'server3:7687',
    role: 'secondary',
    default: false,
    home: false,
  }),
  database({
    name: 'sales',
    address: 'server2:7687',
    writer: true,
    default: false,
    home: false,
    requestedStatus: 'online',
    currentStatus: 'offline',
    statusMessage: 'Unable to start database `sales`: store files are missing',
    currentPrimariesCount: int(1),
    currentSecondariesCount: int(0),
  }),
];

function transaction(over: { [key: string]: unknown }) {
  return record({
    database: 'neo4j',
    transactionId: 'neo4j-transaction-0',
    currentQueryId: '',
    connectionId: 'bolt-0',
    clientAddress: '10.1.0.20:51544',
    username: 'app',
    metaData: {},
    currentQuery: '',
    parameters: {},
    planner: '',
    runtime: '',
    indexes: [],
    startTime: '2025-03-10T09:58:00.000Z',
    currentQueryStartTime: '',
    protocol: 'bolt',
    requestUri: '10.0.0.12:7687',
    status: 'Running',
    currentQueryStatus: '',
    statusDetails: '',
    resourceInformation: {},
    activeLockCount: int(0),
    currentQueryActiveLockCount: int(0),
    elapsedTime: seconds(0),
    cpuTime: seconds(0),
    waitTime: seconds(0),
    idleTime: seconds(0),
    currentQueryElapsedTime: null,
    currentQueryCpuTime: null,
    currentQueryWaitTime: null,
    currentQueryIdleTime: null,
    currentQueryAllocatedBytes: null,
    allocatedDirectBytes: int(0),
    estimatedUsedHeapMemory: int(0),
    pageHits: int(0),
    pageFaults: int(0),
    currentQueryPageHits: int(0),
    currentQueryPageFaults: int(0),
    initializationStackTrace: '',
    outerTransactionId: '',
    ...over,
  });
}

export const transactions = [
  transaction({
    transactionId: 'neo4j-transaction-38',
    connectionId: 'bolt-112',
    username: 'app',
    activeLockCount: int(2),
    elapsedTime: seconds(95, 120_000_000),
    idleTime: seconds(94),
  }),
  transaction({
    transactionId: 'neo4j-transaction-39',
    currentQueryId: 'query-2231',
    connectionId: 'bolt-117',
    clientAddress: '10.1.0.21:40112',
    username: 'batch',
    currentQuery: 'MATCH (a:Account {id: $id}) SET a.balance = a.balance + $amount',
    status: 'Blocked by: [neo4j-transaction-38]',
    currentQueryStatus: 'waiting',
    activeLockCount: int(1),
    elapsedTime: seconds(72, 500_000_000),
    waitTime: seconds(71, 900_000_000),
  }),
  transaction({
    transactionId: 'neo4j-transaction-40',
    currentQueryId: 'query-2240',
    connectionId: 'bolt-120',
    clientAddress: '10.1.0.22:40210',
    username: 'analyst',
    currentQuery: 'MATCH (p:Person)-[:KNOWS*1..6]-(q:Person) RETURN count(DISTINCT q)',
    currentQueryStatus: 'running',
    elapsedTime: seconds(130, 250_000_000),
    cpuTime: seconds(128),
  }),
  transaction({
    transactionId: 'neo4j-transaction-41',
    currentQueryId: 'query-2244',
    connectionId: 'bolt-121',
    clientAddress: '10.9.0.4:52000',
    username: 'monitor',
    metaData: { app: 'flightdeck-poller' },
    currentQuery: 'SHOW TRANSACTIONS YIELD *',
    elapsedTime: seconds(0, 3_000_000),
  }),
  transaction({
    database: 'sales',
    transactionId: 'sales-transaction-7',
    currentQueryId: 'query-2245',
    connectionId: 'bolt-98',
    username: 'app',
    currentQuery: 'RETURN 1',
    elapsedTime: seconds(0, 20_000_000),
  }),
];

export const connections = [record({ connections: int(6) })];

const attr = (value: unknown) => ({ description: 'Attribute exposed for management', value });

function jmx(at: { hits: number; faults: number; committed: number; rollbacks: number; uptime: number }) {
  return [
    record({
      name: 'java.lang:type=Memory',
      attributes: {
        HeapMemoryUsage: attr({
          committed: int(1_073_741_824),
          init: int(536_870_912),
          max: int(2_147_483_648),
          used: int(734_003_200),
        }),
        NonHeapMemoryUsage: attr({
          committed: int(180_000_000),
          init: int(7_667_712),
          max: int(-1),
          used: int(172_000_000),
        }),
        ObjectPendingFinalizationCount: attr(int(0)),
        Verbose: attr(false),
      },
    }),
    record({
      name: 'java.lang:type=Runtime',
      attributes: {
        Uptime: attr(int(at.uptime)),
        StartTime: attr(int(1_741_596_000_000)),
        VmName: attr('OpenJDK 64-Bit Server VM'),
      },
    }),
    record({
      name: 'neo4j.metrics:name=neo4j.dbms.page_cache.hits',
      attributes: { Count: attr(int(at.hits)) },
    }),
    record({
      name: 'neo4j.metrics:name=neo4j.dbms.page_cache.page_faults',
      attributes: { Count: attr(int(at.faults)) },
    }),
    record({
      name: 'neo4j.metrics:name=neo4j.dbms.bolt.connections_running',
      attributes: { Value: attr(int(3)) },
    }),
    record({
      name: 'neo4j.metrics:name=neo4j.dbms.bolt.connections_idle',
      attributes: { Value: attr(int(2)) },
    }),
    record({
      name: 'neo4j.metrics:name=neo4j.database.neo4j.transaction.committed',
      attributes: { Count: attr(int(at.committed)) },
    }),
    record({
      name: 'neo4j.metrics:name=neo4j.database.neo4j.transaction.rollbacks',
      attributes: { Count: attr(int(at.rollbacks)) },
    }),
    record({
      name: 'neo4j.metrics:name=neo4j.database.neo4j.store.size.total',
      attributes: { Value: attr(int(4_831_838_208)) },
    }),
    record({
      name: 'neo4j.metrics:name=neo4j.database.system.store.size.total',
      attributes: { Value: attr(int(52_428_800)) },
    }),
  ];
}

export const jmx1 = jmx({
  hits: 9_000_000,
  faults: 50_000,
  committed: 120_000,
  rollbacks: 300,
  uptime: 86_340_000,
});
export const jmx2 = jmx({
  hits: 9_090_000,
  faults: 51_000,
  committed: 121_200,
  rollbacks: 330,
  uptime: 86_400_000,
});

export const nodeCount = [record({ count: int(120_000) })];
export const relationshipCount = [record({ count: int(480_000) })];

/** An INTEGER past 2^53, as a counter of a long-running server could become. */
export const hugeInteger: Integer = Integer.fromString('9007199254740993');

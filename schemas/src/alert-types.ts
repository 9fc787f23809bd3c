import { z } from 'zod';
import type { UserLocale } from './api/auth';
import type { CatalogMetricName } from './metrics-catalog';

/**
 * The alert-type catalogue (spec section 8, ids 1 to 49). Ids 1-41 follow the spec's list in its
 * order, its compound entries split ("too many connected, running or sleeping threads" is three
 * types); 42-49 are the other kinds the product raises (critical files, URL checks, agents). Ids and
 * codes are stable: alerts, thresholds and notifications store them.
 *
 * Texts live here rather than in the console's i18n files because the collector's notifications
 * (e-mail, chat) render them server-side too.
 */

/** What an alert type is about, for grouping in lists and filters. */
export const ALERT_TYPE_CATEGORIES = [
  'database',
  'host',
  'storage',
  'network',
  'web',
  'url',
  'files',
  'agent',
  'job',
  'report',
  'monitoring',
] as const;
/** What an alert type is about. */
export const AlertTypeCategory = z.enum(ALERT_TYPE_CATEGORIES);
/** What an alert type is about. */
export type AlertTypeCategory = z.infer<typeof AlertTypeCategory>;

/** Default severity of an alert type, in the spec's status letters: Y yellow (warning), R red (critical). */
export type AlertTypeSeverity = 'Y' | 'R';

/** One entry of the catalogue. */
export interface AlertTypeDefinition {
  readonly id: number;
  /** Stable snake_case code. */
  readonly code: string;
  readonly severity: AlertTypeSeverity;
  readonly category: AlertTypeCategory;
  /** Catalogue metrics a threshold of this type usually watches; empty for types raised by a check or an event. */
  readonly metrics: readonly CatalogMetricName[];
}

const CONNECTIONS_PCT = ['mysql.connections_used_pct', 'pg.connections_used_pct'] as const;
const BLOCKED = ['mysql.blocked_sessions', 'pg.blocked_sessions'] as const;
const LONG_QUERIES = ['mysql.long_queries', 'pg.long_queries'] as const;

/** Every alert type, by id. */
export const ALERT_TYPES = [
  { id: 1, code: 'server_unreachable', severity: 'R', category: 'database', metrics: ['service.up'] },
  {
    id: 2,
    code: 'too_many_connections',
    severity: 'Y',
    category: 'database',
    metrics: ['mysql.threads_connected', 'pg.connections_total', 'mysql.aborted_connects_rate'],
  },
  {
    id: 3,
    code: 'replication_error',
    severity: 'R',
    category: 'database',
    metrics: ['mysql.replication_io_running', 'mysql.replication_sql_running'],
  },
  {
    id: 4,
    code: 'replication_delayed',
    severity: 'Y',
    category: 'database',
    metrics: ['mysql.replication_lag', 'pg.replication_lag', 'pg.replica_replay_lag', 'pg.replica_lag_bytes'],
  },
  {
    id: 5,
    code: 'free_disk_critical',
    severity: 'R',
    category: 'storage',
    metrics: ['disk.free_bytes', 'disk.used_pct'],
  },
  {
    id: 6,
    code: 'threads_connected',
    severity: 'Y',
    category: 'database',
    metrics: ['mysql.threads_connected', 'pg.connections_total'],
  },
  {
    id: 7,
    code: 'threads_running',
    severity: 'Y',
    category: 'database',
    metrics: ['mysql.threads_running', 'pg.sessions_active'],
  },
  {
    id: 8,
    code: 'threads_sleeping',
    severity: 'Y',
    category: 'database',
    metrics: ['mysql.threads_sleeping', 'pg.sessions_idle'],
  },
  {
    id: 9,
    code: 'disk_space',
    severity: 'Y',
    category: 'storage',
    metrics: ['disk.used_pct', 'disk.used_bytes'],
  },
  { id: 10, code: 'cpu', severity: 'Y', category: 'host', metrics: ['cpu.total', 'cpu.user', 'cpu.system'] },
  {
    id: 11,
    code: 'io_wait_critical',
    severity: 'R',
    category: 'host',
    metrics: ['cpu.iowait', 'disk_io.busy_pct'],
  },
  { id: 12, code: 'db_engine_cpu', severity: 'Y', category: 'database', metrics: [] },
  { id: 13, code: 'db_engine_memory', severity: 'Y', category: 'database', metrics: [] },
  {
    id: 14,
    code: 'concurrent_transactions',
    severity: 'Y',
    category: 'database',
    metrics: ['pg.sessions_active', 'pg.sessions_idle_in_transaction'],
  },
  {
    id: 15,
    code: 'locks',
    severity: 'Y',
    category: 'database',
    metrics: [
      'mysql.innodb_row_lock_waits_rate',
      'mysql.table_locks_waited_rate',
      'mysql.innodb_deadlocks_rate',
      'pg.deadlocks_rate',
    ],
  },
  {
    id: 16,
    code: 'queries_running',
    severity: 'Y',
    category: 'database',
    metrics: ['mysql.threads_running', 'pg.sessions_active', 'mysql.queries_rate'],
  },
  { id: 17, code: 'table_changed', severity: 'Y', category: 'database', metrics: [] },
  { id: 18, code: 'process_cpu', severity: 'Y', category: 'host', metrics: [] },
  {
    id: 19,
    code: 'request',
    severity: 'Y',
    category: 'web',
    metrics: [
      'nginx.requests_rate',
      'apache.requests_rate',
      'apache.request_duration_ms',
      'nginx.connections_dropped_rate',
    ],
  },
  {
    id: 20,
    code: 'query_ranking',
    severity: 'Y',
    category: 'database',
    metrics: ['mysql.slow_queries_rate'],
  },
  { id: 21, code: 'monitoring', severity: 'Y', category: 'monitoring', metrics: [] },
  { id: 22, code: 'job_failed', severity: 'R', category: 'job', metrics: [] },
  { id: 23, code: 'index_fragmentation', severity: 'Y', category: 'database', metrics: [] },
  { id: 24, code: 'objects_end_of_disk', severity: 'Y', category: 'database', metrics: [] },
  { id: 25, code: 'threads_waiting', severity: 'Y', category: 'database', metrics: [] },
  {
    id: 26,
    code: 'service_down',
    severity: 'R',
    category: 'host',
    metrics: ['win.service_running', 'win.auto_services_stopped', 'container.running'],
  },
  { id: 27, code: 'job_long_running', severity: 'Y', category: 'job', metrics: [] },
  { id: 28, code: 'threads_blocked', severity: 'R', category: 'database', metrics: BLOCKED },
  { id: 29, code: 'thread_blocking', severity: 'R', category: 'database', metrics: [] },
  { id: 30, code: 'report', severity: 'Y', category: 'report', metrics: [] },
  {
    id: 31,
    code: 'memory',
    severity: 'Y',
    category: 'host',
    metrics: ['mem.used_pct', 'mem.available_bytes'],
  },
  { id: 32, code: 'transaction_log', severity: 'Y', category: 'database', metrics: [] },
  { id: 33, code: 'long_query', severity: 'Y', category: 'database', metrics: LONG_QUERIES },
  {
    id: 34,
    code: 'load',
    severity: 'Y',
    category: 'host',
    metrics: ['load.1m', 'load.5m', 'load.15m', 'win.processor_queue_length'],
  },
  {
    id: 35,
    code: 'swap',
    severity: 'Y',
    category: 'host',
    metrics: ['swap.used_pct', 'swap.in_pages_rate', 'swap.out_pages_rate'],
  },
  { id: 36, code: 'capture_failed', severity: 'Y', category: 'monitoring', metrics: [] },
  {
    id: 37,
    code: 'connections_critical',
    severity: 'R',
    category: 'database',
    metrics: [...CONNECTIONS_PCT, 'mysql.max_used_connections'],
  },
  {
    id: 38,
    code: 'tablespace',
    severity: 'Y',
    category: 'database',
    metrics: ['pg.database_size_bytes', 'mysql.schema_size_bytes'],
  },
  { id: 39, code: 'query_analysis', severity: 'Y', category: 'database', metrics: [] },
  { id: 40, code: 'schema_changed', severity: 'Y', category: 'database', metrics: [] },
  { id: 41, code: 'thread_stuck', severity: 'R', category: 'database', metrics: [] },
  { id: 42, code: 'file_changed', severity: 'R', category: 'files', metrics: [] },
  {
    id: 43,
    code: 'url_down',
    severity: 'R',
    category: 'url',
    metrics: ['url.up', 'url.status_code', 'url.keyword_found'],
  },
  { id: 44, code: 'certificate_expiring', severity: 'Y', category: 'url', metrics: ['url.cert_days_left'] },
  { id: 45, code: 'host_unreachable', severity: 'R', category: 'host', metrics: [] },
  { id: 46, code: 'agent_spool_dropping', severity: 'Y', category: 'agent', metrics: [] },
  { id: 47, code: 'url_slow', severity: 'Y', category: 'url', metrics: ['url.response_time_ms'] },
  { id: 48, code: 'disk_inodes', severity: 'Y', category: 'storage', metrics: ['disk.inodes_used_pct'] },
  {
    id: 49,
    code: 'network_errors',
    severity: 'Y',
    category: 'network',
    metrics: ['net.rx_errors_rate', 'net.tx_errors_rate', 'net.rx_drops_rate', 'net.tx_drops_rate'],
  },
] as const satisfies readonly AlertTypeDefinition[];

/** Id of a catalogue alert type, 1 to 49. */
export type AlertTypeId = (typeof ALERT_TYPES)[number]['id'];
/** Code of a catalogue alert type. */
export type AlertTypeCode = (typeof ALERT_TYPES)[number]['code'];

/** Ids of the catalogue, in order. */
export const ALERT_TYPE_IDS = ALERT_TYPES.map((t) => t.id) as AlertTypeId[];
/** Id of a catalogue alert type, 1 to 49. */
export const AlertTypeId = z.literal(ALERT_TYPE_IDS);
/** Code of a catalogue alert type. */
export const AlertTypeCode = z.enum(ALERT_TYPES.map((t) => t.code) as [AlertTypeCode, ...AlertTypeCode[]]);

/** Title and message of an alert type in one language; the message has `{placeholders}`. */
export interface AlertTypeText {
  readonly title: string;
  readonly message: string;
}

type Texts = Readonly<Record<UserLocale, AlertTypeText>>;
const t = (en: [string, string], es: [string, string], pt: [string, string]): Texts => ({
  en: { title: en[0], message: en[1] },
  es: { title: es[0], message: es[1] },
  pt: { title: pt[0], message: pt[1] },
});

/**
 * Texts of every type. Placeholders: {server} (the server's name), {service}, {value} and
 * {threshold} (formatted with their unit by the caller), {mount}, {interface}, {replica}, {database},
 * {table}, {index}, {schema}, {tablespace}, {file}, {path}, {url}, {job}, {process}, {thread},
 * {report}, {query}, {error}, {since}.
 */
export const ALERT_TYPE_TEXTS: Readonly<Record<AlertTypeCode, Texts>> = {
  server_unreachable: t(
    ['Server unreachable', '{server} is unreachable: {service} did not answer the connection.'],
    ['Servidor inaccesible', '{server} no está accesible: {service} no respondió a la conexión.'],
    ['Servidor inacessível', '{server} está inacessível: {service} não respondeu à conexão.'],
  ),
  too_many_connections: t(
    ['Too many connections', '{server}: {value} connections to {service}, above {threshold}.'],
    ['Demasiadas conexiones', '{server}: {value} conexiones a {service}, por encima de {threshold}.'],
    ['Conexões em excesso', '{server}: {value} conexões com {service}, acima de {threshold}.'],
  ),
  replication_error: t(
    ['Critical replication error', '{server}: replication of {service} stopped with an error: {error}.'],
    [
      'Error crítico de replicación',
      '{server}: la replicación de {service} se detuvo con un error: {error}.',
    ],
    ['Erro crítico de replicação', '{server}: a replicação de {service} parou com um erro: {error}.'],
  ),
  replication_delayed: t(
    ['Replication delayed', '{server}: replica {replica} is {value} behind, above {threshold}.'],
    [
      'Replicación retrasada',
      '{server}: la réplica {replica} lleva {value} de retraso, por encima de {threshold}.',
    ],
    ['Replicação atrasada', '{server}: a réplica {replica} está {value} atrasada, acima de {threshold}.'],
  ),
  free_disk_critical: t(
    ['Critical free disk', '{server}: only {value} free on {mount}, below {threshold}.'],
    [
      'Espacio libre en disco crítico',
      '{server}: solo quedan {value} libres en {mount}, por debajo de {threshold}.',
    ],
    ['Espaço livre em disco crítico', '{server}: apenas {value} livres em {mount}, abaixo de {threshold}.'],
  ),
  threads_connected: t(
    ['Too many connected threads', '{server}: {value} threads connected to {service}, above {threshold}.'],
    [
      'Demasiados hilos conectados',
      '{server}: {value} hilos conectados a {service}, por encima de {threshold}.',
    ],
    [
      'Threads conectadas em excesso',
      '{server}: {value} threads conectadas a {service}, acima de {threshold}.',
    ],
  ),
  threads_running: t(
    ['Too many running threads', '{server}: {value} threads running on {service}, above {threshold}.'],
    [
      'Demasiados hilos en ejecución',
      '{server}: {value} hilos en ejecución en {service}, por encima de {threshold}.',
    ],
    [
      'Threads em execução em excesso',
      '{server}: {value} threads em execução em {service}, acima de {threshold}.',
    ],
  ),
  threads_sleeping: t(
    ['Too many sleeping threads', '{server}: {value} sleeping threads on {service}, above {threshold}.'],
    [
      'Demasiados hilos inactivos',
      '{server}: {value} hilos inactivos en {service}, por encima de {threshold}.',
    ],
    ['Threads ociosas em excesso', '{server}: {value} threads ociosas em {service}, acima de {threshold}.'],
  ),
  disk_space: t(
    ['Disk space', '{server}: {mount} is {value} full, above {threshold}.'],
    ['Espacio en disco', '{server}: {mount} está lleno al {value}, por encima de {threshold}.'],
    ['Espaço em disco', '{server}: {mount} está com {value} de uso, acima de {threshold}.'],
  ),
  cpu: t(
    ['CPU', '{server}: CPU at {value}, above {threshold}.'],
    ['CPU', '{server}: CPU al {value}, por encima de {threshold}.'],
    ['CPU', '{server}: CPU em {value}, acima de {threshold}.'],
  ),
  io_wait_critical: t(
    ['Critical I/O wait', '{server}: I/O wait at {value}, above {threshold}.'],
    ['Espera de E/S crítica', '{server}: espera de E/S al {value}, por encima de {threshold}.'],
    ['Espera de E/S crítica', '{server}: espera de E/S em {value}, acima de {threshold}.'],
  ),
  db_engine_cpu: t(
    ['Database engine CPU', '{server}: {service} is using {value} of CPU, above {threshold}.'],
    [
      'CPU del motor de base de datos',
      '{server}: {service} está usando {value} de CPU, por encima de {threshold}.',
    ],
    [
      'CPU do motor de banco de dados',
      '{server}: {service} está usando {value} de CPU, acima de {threshold}.',
    ],
  ),
  db_engine_memory: t(
    ['Database engine memory', '{server}: {service} is using {value} of memory, above {threshold}.'],
    [
      'Memoria del motor de base de datos',
      '{server}: {service} está usando {value} de memoria, por encima de {threshold}.',
    ],
    [
      'Memória do motor de banco de dados',
      '{server}: {service} está usando {value} de memória, acima de {threshold}.',
    ],
  ),
  concurrent_transactions: t(
    [
      'Too many concurrent transactions',
      '{server}: {value} concurrent transactions on {service}, above {threshold}.',
    ],
    [
      'Demasiadas transacciones concurrentes',
      '{server}: {value} transacciones concurrentes en {service}, por encima de {threshold}.',
    ],
    [
      'Transações simultâneas em excesso',
      '{server}: {value} transações simultâneas em {service}, acima de {threshold}.',
    ],
  ),
  locks: t(
    ['Too many locks', '{server}: {value} locks on {service}, above {threshold}.'],
    ['Demasiados bloqueos', '{server}: {value} bloqueos en {service}, por encima de {threshold}.'],
    ['Bloqueios em excesso', '{server}: {value} bloqueios em {service}, acima de {threshold}.'],
  ),
  queries_running: t(
    ['Too many queries running', '{server}: {value} queries running on {service}, above {threshold}.'],
    [
      'Demasiadas consultas en ejecución',
      '{server}: {value} consultas en ejecución en {service}, por encima de {threshold}.',
    ],
    [
      'Consultas em execução em excesso',
      '{server}: {value} consultas em execução em {service}, acima de {threshold}.',
    ],
  ),
  table_changed: t(
    ['Table changes detected', '{server}: table {table} of {service} changed.'],
    ['Cambios en tablas detectados', '{server}: la tabla {table} de {service} cambió.'],
    ['Alterações em tabelas detectadas', '{server}: a tabela {table} de {service} foi alterada.'],
  ),
  process_cpu: t(
    ['Process using much CPU', '{server}: process {process} is using {value} of CPU, above {threshold}.'],
    [
      'Proceso con mucho uso de CPU',
      '{server}: el proceso {process} está usando {value} de CPU, por encima de {threshold}.',
    ],
    [
      'Processo com alto uso de CPU',
      '{server}: o processo {process} está usando {value} de CPU, acima de {threshold}.',
    ],
  ),
  request: t(
    ['Request', '{server}: {service} requests at {value}, past the limit of {threshold}.'],
    ['Solicitud', '{server}: solicitudes de {service} en {value}, fuera del límite de {threshold}.'],
    ['Requisição', '{server}: requisições de {service} em {value}, fora do limite de {threshold}.'],
  ),
  query_ranking: t(
    ['Query ranking', '{server}: a query entered the top of the ranking of {service}: {query}.'],
    [
      'Ranking de consultas',
      '{server}: una consulta entró en lo más alto del ranking de {service}: {query}.',
    ],
    ['Ranking de consultas', '{server}: uma consulta entrou no topo do ranking de {service}: {query}.'],
  ),
  monitoring: t(
    ['Monitoring', '{server}: no data from {service} since {since}.'],
    ['Monitoreo', '{server}: sin datos de {service} desde {since}.'],
    ['Monitoramento', '{server}: sem dados de {service} desde {since}.'],
  ),
  job_failed: t(
    ['Job failure', '{server}: job {job} failed: {error}.'],
    ['Fallo de tarea', '{server}: la tarea {job} falló: {error}.'],
    ['Falha de job', '{server}: o job {job} falhou: {error}.'],
  ),
  index_fragmentation: t(
    [
      'High index fragmentation',
      '{server}: index {index} of {table} is {value} fragmented, above {threshold}.',
    ],
    [
      'Fragmentación de índice alta',
      '{server}: el índice {index} de {table} está fragmentado al {value}, por encima de {threshold}.',
    ],
    [
      'Fragmentação de índice alta',
      '{server}: o índice {index} de {table} está {value} fragmentado, acima de {threshold}.',
    ],
  ),
  objects_end_of_disk: t(
    [
      'Objects at end of disk',
      '{server}: {value} objects at the end of data file {file} keep it from shrinking.',
    ],
    [
      'Objetos al final del disco',
      '{server}: {value} objetos al final del archivo de datos {file} impiden reducirlo.',
    ],
    [
      'Objetos no fim do disco',
      '{server}: {value} objetos no fim do arquivo de dados {file} impedem reduzi-lo.',
    ],
  ),
  threads_waiting: t(
    ['Waiting threads', '{server}: {value} threads waiting on {service}, above {threshold}.'],
    ['Hilos en espera', '{server}: {value} hilos en espera en {service}, por encima de {threshold}.'],
    ['Threads em espera', '{server}: {value} threads em espera em {service}, acima de {threshold}.'],
  ),
  service_down: t(
    ['Service down', '{server}: service {service} is down.'],
    ['Servicio caído', '{server}: el servicio {service} está caído.'],
    ['Serviço parado', '{server}: o serviço {service} está parado.'],
  ),
  job_long_running: t(
    ['Long-running job', '{server}: job {job} has been running for {value}, above {threshold}.'],
    [
      'Tarea de larga duración',
      '{server}: la tarea {job} lleva {value} en ejecución, por encima de {threshold}.',
    ],
    ['Job de longa duração', '{server}: o job {job} está em execução há {value}, acima de {threshold}.'],
  ),
  threads_blocked: t(
    ['Blocked threads', '{server}: {value} threads blocked on {service}, above {threshold}.'],
    ['Hilos bloqueados', '{server}: {value} hilos bloqueados en {service}, por encima de {threshold}.'],
    ['Threads bloqueadas', '{server}: {value} threads bloqueadas em {service}, acima de {threshold}.'],
  ),
  thread_blocking: t(
    ['Thread blocking others', '{server}: thread {thread} on {service} is blocking {value} others.'],
    ['Hilo que bloquea a otros', '{server}: el hilo {thread} en {service} está bloqueando a otros {value}.'],
    ['Thread bloqueando outras', '{server}: a thread {thread} em {service} está bloqueando outras {value}.'],
  ),
  report: t(
    ['Report', '{server}: report {report} needs attention.'],
    ['Informe', '{server}: el informe {report} requiere atención.'],
    ['Relatório', '{server}: o relatório {report} requer atenção.'],
  ),
  memory: t(
    ['Memory use', '{server}: memory use at {value}, above {threshold}.'],
    ['Uso de memoria', '{server}: uso de memoria al {value}, por encima de {threshold}.'],
    ['Uso de memória', '{server}: uso de memória em {value}, acima de {threshold}.'],
  ),
  transaction_log: t(
    ['Transaction log use', '{server}: transaction log of {database} at {value}, above {threshold}.'],
    [
      'Uso del registro de transacciones',
      '{server}: registro de transacciones de {database} al {value}, por encima de {threshold}.',
    ],
    [
      'Uso do log de transações',
      '{server}: log de transações de {database} em {value}, acima de {threshold}.',
    ],
  ),
  long_query: t(
    ['Long query', '{server}: {value} queries on {service} running for longer than {threshold}.'],
    [
      'Consulta prolongada',
      '{server}: {value} consultas en {service} en ejecución desde hace más de {threshold}.',
    ],
    ['Consulta longa', '{server}: {value} consultas em {service} em execução há mais de {threshold}.'],
  ),
  load: t(
    ['Resource load', '{server}: load at {value}, above {threshold}.'],
    ['Carga de recursos', '{server}: carga en {value}, por encima de {threshold}.'],
    ['Carga de recursos', '{server}: carga em {value}, acima de {threshold}.'],
  ),
  swap: t(
    ['Swap use', '{server}: swap use at {value}, above {threshold}.'],
    ['Uso de swap', '{server}: uso de swap al {value}, por encima de {threshold}.'],
    ['Uso de swap', '{server}: uso de swap em {value}, acima de {threshold}.'],
  ),
  capture_failed: t(
    ['Capture failure', '{server}: capturing {service} failed: {error}.'],
    ['Fallo de captura', '{server}: falló la captura de {service}: {error}.'],
    ['Falha de captura', '{server}: a captura de {service} falhou: {error}.'],
  ),
  connections_critical: t(
    [
      'Critical connection count',
      '{server}: {service} connections at {value} of the limit, above {threshold}.',
    ],
    [
      'Número de conexiones crítico',
      '{server}: conexiones de {service} al {value} del límite, por encima de {threshold}.',
    ],
    [
      'Número de conexões crítico',
      '{server}: conexões de {service} em {value} do limite, acima de {threshold}.',
    ],
  ),
  tablespace: t(
    ['Tablespace use', '{server}: tablespace {tablespace} at {value}, above {threshold}.'],
    ['Uso de tablespace', '{server}: tablespace {tablespace} al {value}, por encima de {threshold}.'],
    ['Uso de tablespace', '{server}: tablespace {tablespace} em {value}, acima de {threshold}.'],
  ),
  query_analysis: t(
    ['Query analysis', '{server}: the analysis of a query on {service} found problems: {query}.'],
    [
      'Análisis de consultas',
      '{server}: el análisis de una consulta en {service} encontró problemas: {query}.',
    ],
    [
      'Análise de consultas',
      '{server}: a análise de uma consulta em {service} encontrou problemas: {query}.',
    ],
  ),
  schema_changed: t(
    ['Schema change detected', '{server}: schema {schema} of {service} changed.'],
    ['Cambio de esquema detectado', '{server}: el esquema {schema} de {service} cambió.'],
    ['Alteração de esquema detectada', '{server}: o esquema {schema} de {service} foi alterado.'],
  ),
  thread_stuck: t(
    [
      'Long stuck thread',
      '{server}: thread {thread} on {service} has been stuck for {value}, above {threshold}.',
    ],
    [
      'Hilo detenido por mucho tiempo',
      '{server}: el hilo {thread} en {service} lleva {value} detenido, por encima de {threshold}.',
    ],
    [
      'Thread travada há muito tempo',
      '{server}: a thread {thread} em {service} está travada há {value}, acima de {threshold}.',
    ],
  ),
  file_changed: t(
    ['Critical file changed', '{server}: critical file {path} changed.'],
    ['Archivo crítico modificado', '{server}: el archivo crítico {path} fue modificado.'],
    ['Arquivo crítico alterado', '{server}: o arquivo crítico {path} foi alterado.'],
  ),
  url_down: t(
    ['URL down', '{url} is down: {error}.'],
    ['URL caída', '{url} está caída: {error}.'],
    ['URL fora do ar', '{url} está fora do ar: {error}.'],
  ),
  certificate_expiring: t(
    ['Certificate expiring', 'The TLS certificate of {url} expires in {value} days, below {threshold}.'],
    [
      'Certificado por vencer',
      'El certificado TLS de {url} vence en {value} días, por debajo de {threshold}.',
    ],
    ['Certificado expirando', 'O certificado TLS de {url} expira em {value} dias, abaixo de {threshold}.'],
  ),
  host_unreachable: t(
    ['Host unreachable', '{server} has sent no heartbeat since {since}.'],
    ['Host inaccesible', '{server} no envía señales de vida desde {since}.'],
    ['Host inacessível', '{server} não envia sinais de vida desde {since}.'],
  ),
  agent_spool_dropping: t(
    ['Agent spool dropping data', "{server}: the agent's spool is full and dropped {value} batches."],
    [
      'La cola del agente descarta datos',
      '{server}: la cola del agente está llena y descartó {value} lotes.',
    ],
    ['Fila do agente descartando dados', '{server}: a fila do agente está cheia e descartou {value} lotes.'],
  ),
  url_slow: t(
    ['URL slow', '{url} answered in {value}, above {threshold}.'],
    ['URL lenta', '{url} respondió en {value}, por encima de {threshold}.'],
    ['URL lenta', '{url} respondeu em {value}, acima de {threshold}.'],
  ),
  disk_inodes: t(
    ['Inode use', '{server}: {mount} has {value} of its inodes in use, above {threshold}.'],
    ['Uso de inodos', '{server}: {mount} tiene en uso el {value} de sus inodos, por encima de {threshold}.'],
    ['Uso de inodes', '{server}: {mount} tem {value} dos inodes em uso, acima de {threshold}.'],
  ),
  network_errors: t(
    ['Network errors', '{server}: {value} errors and drops per second on {interface}, above {threshold}.'],
    [
      'Errores de red',
      '{server}: {value} errores y descartes por segundo en {interface}, por encima de {threshold}.',
    ],
    [
      'Erros de rede',
      '{server}: {value} erros e descartes por segundo em {interface}, acima de {threshold}.',
    ],
  ),
};

const BY_ID: ReadonlyMap<number, (typeof ALERT_TYPES)[number]> = new Map(ALERT_TYPES.map((a) => [a.id, a]));

/** The catalogue entry of an id, or undefined for an id outside 1-49. */
export function alertTypeById(id: number): (typeof ALERT_TYPES)[number] | undefined {
  return BY_ID.get(id);
}

/** Names of the `{placeholders}` of a text, in order of first appearance. */
export function textPlaceholders(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(/\{([a-z_]+)\}/g), (m) => m[1]!))];
}

/**
 * The message of an alert type in a language, its `{placeholders}` filled from `vars`. A
 * placeholder with no value stays as written, so a missing detail shows instead of vanishing.
 * Throws for an id outside the catalogue: ids come from stored alerts, and a wrong one is a bug.
 */
export function alertTypeText(
  id: number,
  locale: UserLocale,
  vars: Readonly<Record<string, string | number>> = {},
): string {
  const type = BY_ID.get(id);
  if (!type) throw new RangeError(`unknown alert type ${id}: expected 1 to ${ALERT_TYPES.length}`);
  return ALERT_TYPE_TEXTS[type.code][locale].message.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    const v = vars[name];
    return v === undefined ? whole : String(v);
  });
}

/** The short title of an alert type in a language (for lists and notification subjects). */
export function alertTypeTitle(id: number, locale: UserLocale): string {
  const type = BY_ID.get(id);
  if (!type) throw new RangeError(`unknown alert type ${id}: expected 1 to ${ALERT_TYPES.length}`);
  return ALERT_TYPE_TEXTS[type.code][locale].title;
}

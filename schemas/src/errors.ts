/**
 * Error codes shared by the API envelope, the bus and the stores. Each code has the HTTP status the
 * API answers with and an English fallback; the console translates `errors.<code>`.
 */
export const ERROR_CODES = [
  'validation_failed',
  'invalid_batch',
  'unauthorized',
  'invalid_credentials',
  'invalid_code',
  'passwords_mismatch',
  'email_taken',
  'forbidden',
  'plan_gated',
  'not_found',
  'conflict',
  'limit_reached',
  'service_limit_reached',
  'server_limit_reached',
  'user_limit_reached',
  'payload_too_large',
  'rate_limited',
  'timeout',
  'bus_unavailable',
  'store_unavailable',
  'mail_unavailable',
  'internal',
  'connection_failed',
  'auth_failed',
  'wrong_engine',
  'tls_error',
  'bad_config',
  'no_collector',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status for each error code. */
export const ERROR_HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  validation_failed: 400,
  invalid_batch: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_code: 400,
  passwords_mismatch: 400,
  email_taken: 409,
  forbidden: 403,
  plan_gated: 403,
  not_found: 404,
  conflict: 409,
  limit_reached: 409,
  // Plan limits are not 403: the console reads a 403 other than plan_gated as a lost session.
  service_limit_reached: 409,
  server_limit_reached: 409,
  user_limit_reached: 409,
  payload_too_large: 413,
  rate_limited: 429,
  timeout: 504,
  bus_unavailable: 503,
  store_unavailable: 503,
  mail_unavailable: 503,
  internal: 500,
  // A monitored target failed a connection test: the target answered badly, not the API.
  connection_failed: 502,
  auth_failed: 502,
  wrong_engine: 502,
  tls_error: 502,
  bad_config: 400,
  no_collector: 503,
};

/** English fallback for each code, used when a more specific message is not given. */
export const ERROR_FALLBACK_MESSAGES: Readonly<Record<ErrorCode, string>> = {
  validation_failed: 'The request is not valid.',
  invalid_batch: 'The metric batch is not valid.',
  unauthorized: 'Sign in to continue.',
  invalid_credentials: 'Invalid login: the e-mail or the password is wrong.',
  invalid_code: 'The code is wrong or has expired. Ask for a new one.',
  passwords_mismatch: 'The passwords do not match!',
  email_taken: 'An account with this e-mail already exists. Sign in or recover the password.',
  forbidden: 'You do not have access to this resource.',
  plan_gated: 'This feature is not part of your plan.',
  not_found: 'This page could not be found',
  conflict: 'This conflicts with data that already exists.',
  limit_reached: 'A limit was reached: remove something before adding more.',
  service_limit_reached: 'Service limit reached: the plan allows no more services.',
  server_limit_reached: 'Maximum number of servers reached: the plan allows no more servers.',
  user_limit_reached: 'User limit reached: the plan allows no more active users.',
  payload_too_large: 'The request is too large.',
  rate_limited: 'Too many attempts. Wait a minute and try again.',
  timeout: 'The service did not respond in time.',
  bus_unavailable: 'The message bus is not reachable.',
  store_unavailable: 'The metric store is not reachable.',
  mail_unavailable: 'The e-mail could not be sent. Try again in a few minutes.',
  internal: 'Sorry, an internal error was detected. Wait a few minutes and try again.',
  connection_failed: 'Failed to connect to the pool.',
  auth_failed: 'Authentication error. Check the service logs to find the cause.',
  wrong_engine: 'Another kind of service answers at this address and port.',
  tls_error: 'The secure (TLS) connection to the service failed.',
  bad_config: 'The service configuration is not valid.',
  no_collector: 'No collector or agent is registered to reach this service.',
};

/**
 * A metric batch (or another bus message) that does not match its schema. `path` names the first
 * offending field, e.g. `samples[12].v`, so a producer can be fixed from the message alone.
 */
export class InvalidBatchError extends Error {
  readonly code = 'invalid_batch' as const;
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`invalid metric batch: ${path ? `${path}: ` : ''}${reason}`);
    this.name = 'InvalidBatchError';
  }
}

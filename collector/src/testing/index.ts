/** Helpers for the test suites of the workspaces: a private NATS server per suite. */
export * from './nats-server';

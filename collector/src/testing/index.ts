/** Helpers for the test suites of the workspaces: a private NATS server per suite, a local SMTP server. */
export {
  type ReceivedMail,
  startTestSmtpServer,
  type TestSmtpServer,
  waitFor,
} from '../notify/test-servers';
export * from './nats-server';

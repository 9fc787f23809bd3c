/** Helpers for the test suites of the workspaces: a private NATS server per suite, a local SMTP server. */
export {
  type CapturedRequest,
  type CaptureReply,
  type CaptureServer,
  type ReceivedMail,
  startCaptureServer,
  startTestSmtpServer,
  type TestSmtpServer,
  waitFor,
} from '../notify/test-servers';
export * from './nats-server';

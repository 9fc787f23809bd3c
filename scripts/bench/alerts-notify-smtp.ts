import { startTestSmtpServer } from '@flightdeck/collector/testing';

/**
 * The local SMTP server of the alert notification benchmark, run as its own process (as a real
 * mail server is): prints `{"port"}` once listening, then `{"text","at"}` per message accepted,
 * `at` in unix milliseconds with sub-millisecond precision.
 */
const smtp = await startTestSmtpServer();
const push = smtp.received.push.bind(smtp.received);
smtp.received.push = (...mails) => {
  const at = performance.timeOrigin + performance.now();
  for (const m of mails) process.stdout.write(`${JSON.stringify({ text: m.text, at })}\n`);
  // Only the arrival matters here: nothing is kept.
  return push();
};
process.stdout.write(`${JSON.stringify({ port: Number(new URL(smtp.url).port) })}\n`);
process.on('SIGTERM', () => {
  void smtp.close().then(() => process.exit(0));
});

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** One message the local SMTP server received, as the global setup stores it for the tests. */
export interface StoredMail {
  to: string[];
  raw: string;
  receivedAt: number;
}

/**
 * A real SMTP server on 127.0.0.1 (no TLS, no auth) that writes each message it receives as JSON
 * into `dir`, so test files, which run in other processes, can read the codes the product mails.
 */
export async function startMailbox(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail: StoredMail = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
          receivedAt: Date.now(),
        };
        count += 1;
        writeFileSync(join(dir, `${Date.now()}-${count}.json`), JSON.stringify(mail));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Decodes the `=?UTF-8?B?...?=` / `?Q?` words of a header. */
function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : text
          .replace(/_/g, ' ')
          .replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  );
}

/** The 6-digit code of the newest message to `to` received after `since`, waiting up to `timeoutMs`. */
export async function waitForCode(
  dir: string,
  to: string,
  since: number,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = readdirSync(dir)
      .sort()
      .reverse()
      .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as StoredMail)
      .filter((mail) => mail.receivedAt >= since && mail.to.includes(to.toLowerCase()));
    for (const mail of mails) {
      const headers = mail.raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
      const subject = decodeWords(/^Subject:\s*(.*)$/im.exec(headers)?.[1] ?? '');
      const code =
        /\b(\d{6})\b/.exec(subject)?.[1] ?? /\b(\d{6})\b/.exec(mail.raw.slice(headers.length))?.[1];
      if (code) return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no e-mail with a code reached ${to} within ${timeoutMs / 1000} s`);
}

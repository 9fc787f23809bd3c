import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message a test SMTP server received, with its plain-text part decoded. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/** A real SMTP server on 127.0.0.1 for tests: no TLS, no auth, keeps what it receives. */
export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The next message to `to` not returned before; rejects after `timeoutMs`. */
  nextMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  const soft = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(soft.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

function header(block: string, name: string): string | undefined {
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  return unfolded.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1]?.trim();
}

/** Decodes `=?UTF-8?B?...?=` and `=?UTF-8?Q?...?=` words of a header. */
function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** The text/plain part of a MIME message (single part or multipart/alternative), decoded. */
export function plainTextOf(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const type = header(head, 'Content-Type') ?? 'text/plain';
  const boundary = type.match(/boundary="?([^";]+)"?/i)?.[1];
  if (!boundary) return decodeBody(body, header(head, 'Content-Transfer-Encoding'));
  for (const part of body.split(`--${boundary}`)) {
    const text = part.replace(/^\r?\n/, '');
    const at = text.search(/\r?\n\r?\n/);
    if (at < 0) continue;
    const partHead = text.slice(0, at);
    if (!/^content-type:\s*text\/plain/im.test(partHead)) continue;
    const partBody = text.slice(at).replace(/^\r?\n\r?\n/, '');
    return decodeBody(partBody, header(partHead, 'Content-Transfer-Encoding'));
  }
  return '';
}

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const head = raw.slice(0, raw.search(/\r?\n\r?\n/));
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: decodeWords(header(head, 'Subject') ?? ''),
          text: plainTextOf(raw),
          raw,
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async nextMail(to, timeoutMs = 5_000) {
      // performance.now, not Date: tests may freeze Date to move the clock.
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`no e-mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 100));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code of a code e-mail, read from its text (a line of its own). */
export function codeOf(mail: ReceivedMail): string {
  const code = mail.text.match(/^\s*(\d{6})\s*$/m)?.[1];
  if (!code) throw new Error(`no code in the e-mail text:\n${mail.text}`);
  return code;
}

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A request a capture server received. */
export interface CapturedRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  /** performance.now() when it arrived. */
  at: number;
}

/** What the capture server answers a request with; `hang` never answers. */
export type CaptureReply = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang';

/**
 * A real HTTP server on 127.0.0.1 standing in for a messaging service: it keeps every request and
 * answers with `reply` (200 `{"ok":true}` by default). `stop` and `start` take it down and bring it
 * back on the same port, for outages.
 */
export interface CaptureServer {
  url: string;
  requests: CapturedRequest[];
  reply: (req: CapturedRequest) => CaptureReply;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

export async function startCaptureServer(): Promise<CaptureServer> {
  let server: Server | undefined;
  let port = 0;
  const capture: CaptureServer = {
    url: '',
    requests: [],
    reply: () => ({ status: 200, body: { ok: true } }),
    async start() {
      if (server) return;
      const s = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = body ? JSON.parse(body) : undefined;
          } catch {
            json = undefined;
          }
          const captured = {
            method: req.method ?? '',
            path: req.url ?? '',
            headers: req.headers,
            body,
            json,
            at: performance.now(),
          };
          capture.requests.push(captured);
          const reply = capture.reply(captured);
          if (reply === 'hang') return;
          const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
          res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
          res.end(text);
        });
      });
      port = await listen(s, port);
      server = s;
      capture.url = `http://127.0.0.1:${port}`;
    },
    async stop() {
      const s = server;
      server = undefined;
      if (!s) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    close: () => capture.stop(),
  };
  await capture.start();
  return capture;
}

/** A message the test SMTP server received. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
  /** The SMTP connection it came over (1, 2, ...). */
  connection: number;
}

/** A real SMTP server on 127.0.0.1 (no TLS, no auth) keeping what it receives. */
export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** Connections opened so far. */
  connections(): number;
  /** Answers RCPT TO for an address with 550, a mailbox that does not exist. */
  rejectRecipient(address: string): void;
  stop(): Promise<void>;
  start(): Promise<void>;
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

function header(head: string, name: string): string | undefined {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return unfolded.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1]?.trim();
}

/** Decodes the `=?UTF-8?B?...?=` and `=?UTF-8?Q?...?=` words of a header. */
function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** Subject and text of a single-part text/plain message as nodemailer writes it. */
function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const encoding = header(head, 'Content-Transfer-Encoding')?.toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  return { subject: decodeWords(header(head, 'Subject') ?? ''), text: text.replace(/\r\n/g, '\n').trimEnd() };
}

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const rejected = new Set<string>();
  let connections = 0;
  let port = 0;
  let server: SMTPServer | undefined;
  const smtp: TestSmtpServer = {
    url: '',
    received,
    connections: () => connections,
    rejectRecipient: (address) => void rejected.add(address.toLowerCase()),
    async start() {
      if (server) return;
      const connectionOf = new Map<string, number>();
      const s = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        disableReverseLookup: true,
        // A pooled client keeps its connection open: end it soon after close() rather than in 30 s.
        closeTimeout: 50,
        onConnect(session, callback) {
          connectionOf.set(session.id, ++connections);
          callback();
        },
        onRcptTo(address, _session, callback) {
          if (rejected.has(address.address.toLowerCase())) {
            const err = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
            return callback(err);
          }
          callback();
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              ...parseMail(raw),
              raw,
              connection: connectionOf.get(session.id) ?? 0,
            });
            callback();
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        s.server.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
      port = (s.server.address() as AddressInfo).port;
      server = s;
      smtp.url = `smtp://127.0.0.1:${port}`;
    },
    async stop() {
      const s = server;
      server = undefined;
      if (!s) return;
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    close: () => smtp.stop(),
  };
  await smtp.start();
  return smtp;
}

/** Waits until `check` is true, polling every 10 ms; fails after `timeoutMs` with `what`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

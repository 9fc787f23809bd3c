import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyFirstBytes, wrongEngine } from './sniff';

const hex = (name: string) =>
  Buffer.from(readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8').trim(), 'hex');

describe('classifyFirstBytes', () => {
  it('knows the recorded MariaDB greeting and reads its version', () => {
    expect(classifyFirstBytes(hex('mariadb-greeting.hex'), false)).toEqual({
      engine: 'mysql',
      detail: '5.5.5-10.11.19-MariaDB-0+deb12u1',
    });
  });

  it('knows a MySQL error packet sent instead of a greeting', () => {
    const message = Buffer.from("Host '10.0.0.9' is not allowed to connect to this MySQL server");
    const packet = Buffer.concat([Buffer.from([message.length + 3, 0, 0, 0, 0xff, 0x6a, 0x04]), message]);
    expect(classifyFirstBytes(packet, false)).toMatchObject({
      engine: 'mysql',
      detail: expect.stringContaining('not allowed'),
    });
  });

  it("knows PostgreSQL's one-byte answer to an SSLRequest once no more bytes come", () => {
    const reply = hex('postgres-ssl-reply.hex');
    expect(classifyFirstBytes(reply, false)).toBeUndefined();
    expect(classifyFirstBytes(reply, true)).toEqual({ engine: 'postgresql' });
    expect(classifyFirstBytes(Buffer.from('S'), true)).toEqual({ engine: 'postgresql' });
  });

  it('waits for the rest of a MySQL greeting whose length starts with the byte of N', () => {
    const greeting = hex('mariadb-greeting.hex');
    const start = Buffer.from([0x4e]);
    expect(classifyFirstBytes(start, false)).toBeUndefined();
    expect(classifyFirstBytes(Buffer.concat([start, greeting.subarray(1)]), false)).toMatchObject({
      engine: 'mysql',
    });
  });

  it('knows HTTP, SSH and TLS servers, and calls anything else other', () => {
    expect(
      classifyFirstBytes(Buffer.from('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n'), false),
    ).toEqual({
      engine: 'http',
      detail: 'HTTP/1.1 400 Bad Request',
    });
    expect(classifyFirstBytes(Buffer.from('SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n'), false)).toEqual({
      engine: 'ssh',
      detail: 'SSH-2.0-OpenSSH_9.2p1',
    });
    expect(classifyFirstBytes(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x32]), false)).toEqual({
      engine: 'tls',
    });
    expect(classifyFirstBytes(Buffer.from('220 mail.example.com ESMTP\r\n'), false)).toEqual({
      engine: 'other',
      detail: '220 mail.example.com ESMTP',
    });
    expect(classifyFirstBytes(Buffer.alloc(0), true)).toBeUndefined();
  });
});

describe('wrongEngine', () => {
  it('names what answered and what was expected', () => {
    expect(
      wrongEngine({ engine: 'mysql', detail: '8.0.36' }, 'postgresql', '10.0.0.5:3306', 'PostgreSQL'),
    ).toEqual({
      ok: false,
      code: 'wrong_engine',
      message:
        '10.0.0.5:3306 answers as a MySQL or MariaDB server (8.0.36), not PostgreSQL. Register it as a MySQL service, or check the port.',
    });
  });

  it('lets the expected engine and unknown servers through to the driver', () => {
    expect(wrongEngine({ engine: 'postgresql' }, 'postgresql', 'h:5432', 'PostgreSQL')).toBeUndefined();
    expect(wrongEngine({ engine: 'other', detail: '?' }, 'mysql', 'h:3306', 'MySQL')).toBeUndefined();
  });
});

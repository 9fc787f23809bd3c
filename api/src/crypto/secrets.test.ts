import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateSecretsKey, parseSecretsKey, SecretsError } from './secrets';

const box = createSecretBox(randomBytes(32));

describe('secret box', () => {
  it('opens what it sealed, with a fresh IV each time', () => {
    const a = box.seal('s3cret', 'customer:1');
    const b = box.seal('s3cret', 'customer:1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cret');
    expect(box.open(a, 'customer:1')).toBe('s3cret');
    expect(box.open(b, 'customer:1')).toBe('s3cret');
  });

  it('refuses a tampered value, another context or another key', () => {
    const sealed = box.seal('s3cret', 'customer:1');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[0] = data[0]! ^ 1;
    const tampered = [...parts.slice(0, 3), data.toString('base64url')].join('.');
    expect(() => box.open(tampered, 'customer:1')).toThrow(SecretsError);
    const tag = Buffer.from(parts[2]!, 'base64url');
    tag[5] = tag[5]! ^ 0x80;
    expect(() =>
      box.open([parts[0], parts[1], tag.toString('base64url'), parts[3]].join('.'), 'customer:1'),
    ).toThrow(SecretsError);
    expect(() => box.open(sealed, 'customer:2')).toThrow(SecretsError);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'customer:1')).toThrow(SecretsError);
    expect(() => box.open('plain text', 'customer:1')).toThrow(SecretsError);
  });
});

describe('secrets key', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads 32 bytes as hex or base64 and refuses other lengths', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretsKey(randomBytes(16).toString('hex'))).toBeNull();
    expect(parseSecretsKey('not a key')).toBeNull();
  });

  it('makes a key file with mode 0600 on the first start and reads it again later', () => {
    dir = mkdtempSync(join(tmpdir(), 'fd-secrets-'));
    const first = loadOrCreateSecretsKey(undefined, join(dir, 'data'));
    const file = join(dir, 'data', 'secrets.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseSecretsKey(readFileSync(file, 'utf8'))).toEqual(first);
    expect(loadOrCreateSecretsKey(undefined, join(dir, 'data'))).toEqual(first);
    const given = randomBytes(32);
    expect(loadOrCreateSecretsKey(given.toString('hex'), join(dir, 'data'))).toEqual(given);
  });
});

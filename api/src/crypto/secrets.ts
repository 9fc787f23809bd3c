import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Name of the key file kept in DATA_DIR when SECRETS_KEY is not set. */
export const SECRETS_KEY_FILE = 'secrets.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const VERSION = 'v1';

/** A sealed value that is not ours, was changed, or was sealed with another key or context. */
export class SecretsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsError';
  }
}

/**
 * The 32-byte key of a `SECRETS_KEY` value: 64 hex characters or base64 (standard or url-safe) of
 * 32 bytes. Anything else is null, so the config can name the variable.
 */
export function parseSecretsKey(text: string): Buffer | null {
  const v = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v)) {
    const key = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === KEY_BYTES ? key : null;
  }
  return null;
}

/**
 * The key of `SECRETS_KEY` when it is set; otherwise the one in `<dataDir>/secrets.key`, made on
 * the first start (random, base64, file mode 0600). A set but unusable value throws: config parsing
 * has normally refused it already.
 */
export function loadOrCreateSecretsKey(secretsKey: string | undefined, dataDir: string): Buffer {
  if (secretsKey !== undefined) {
    const key = parseSecretsKey(secretsKey);
    if (!key) throw new SecretsError('SECRETS_KEY: expected 32 bytes as 64 hex characters or base64');
    return key;
  }
  const file = join(dataDir, SECRETS_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      // `wx`: two processes starting together never overwrite each other's key.
      writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
    }
  }
  chmodSync(file, 0o600);
  const key = parseSecretsKey(readFileSync(file, 'utf8'));
  if (!key) throw new SecretsError(`${file}: not a 32-byte key (base64 or hex); fix or remove it`);
  return key;
}

/** Seals and opens short secrets (passwords) for the metadata DB. */
export interface SecretBox {
  /** `v1.<iv>.<tag>.<ciphertext>`, base64url; a fresh random IV each time. */
  seal(plaintext: string, context: string): string;
  /** The plaintext; throws {@link SecretsError} when the value was changed or the context differs. */
  open(sealed: string, context: string): string;
}

/**
 * AES-256-GCM with `key`. `context` (e.g. `customer:12`) is authenticated with the value, so a
 * sealed value copied to another customer's row does not open.
 */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new SecretsError(`the secrets key must be ${KEY_BYTES} bytes`);
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, tag, data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretsError('not a sealed secret');
      const [iv, tag, data] = parts.slice(1).map((p) => Buffer.from(p, 'base64url')) as [
        Buffer,
        Buffer,
        Buffer,
      ];
      if (iv.length !== IV_BYTES || tag.length !== 16) throw new SecretsError('not a sealed secret');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretsError('the secret could not be opened: changed, or sealed with another key');
      }
    },
  };
}

import { createHmac, randomBytes } from 'node:crypto';
import {
  POLLER_CONFIG_SCHEMAS,
  type PollerService,
  SECRET_CONFIG_FIELDS,
  SECRET_MASK,
} from '@flightdeck/schemas';
import type { SecretBox } from '../crypto/secrets';
import type { Service } from '../db/types';

/** A config parsed with its service's schema: every default filled in. */
export type ParsedConfig = Record<string, unknown>;

/** Parses a config as the collector will; throws the ZodError the app answers as 400. */
export function parseConfig(service: PollerService, raw: unknown): ParsedConfig {
  return POLLER_CONFIG_SCHEMAS[service].parse(raw) as ParsedConfig;
}

/** The config with each secret replaced by the mask, as any call returns it. */
export function maskConfig(config: ParsedConfig): ParsedConfig {
  const out: ParsedConfig = { ...config };
  for (const k of SECRET_CONFIG_FIELDS) if (typeof out[k] === 'string' && out[k] !== '') out[k] = SECRET_MASK;
  return out;
}

/** Context a customer's secrets are sealed under: a value copied to another customer fails to open. */
const contextOf = (customerId: number) => `customer:${customerId}`;

/** The config to store (no secrets) and the sealed secrets (null when it has none). */
export function splitConfig(
  box: SecretBox,
  customerId: number,
  config: ParsedConfig,
): { config: string; secrets: string | null } {
  const plain: ParsedConfig = { ...config };
  const secret: Record<string, unknown> = {};
  for (const k of SECRET_CONFIG_FIELDS) {
    if (plain[k] !== undefined) {
      secret[k] = plain[k];
      delete plain[k];
    }
  }
  return {
    config: JSON.stringify(plain),
    secrets: Object.keys(secret).length > 0 ? box.seal(JSON.stringify(secret), contextOf(customerId)) : null,
  };
}

/** A stored service's full config, secrets opened. Throws SecretsError when they do not open. */
export function joinConfig(
  box: SecretBox,
  service: Pick<Service, 'customer_id' | 'config' | 'secrets'>,
): ParsedConfig {
  const plain = service.config ? (JSON.parse(service.config) as ParsedConfig) : {};
  const secret = service.secrets
    ? (JSON.parse(box.open(service.secrets, contextOf(service.customer_id))) as ParsedConfig)
    : {};
  return { ...plain, ...secret };
}

const fingerprintKey = randomBytes(32);

/**
 * Identifies a customer's config of a service for "was exactly this tested?": an HMAC under a key
 * of this process, so the memory of tested configs holds no password, not even a plain hash.
 */
export function configFingerprint(customerId: number, service: PollerService, config: ParsedConfig): string {
  const sorted = canonical(config);
  return createHmac('sha256', fingerprintKey).update(`${customerId}\n${service}\n${sorted}`).digest('hex');
}

/** JSON with object keys in order, at every depth. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

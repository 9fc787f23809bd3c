import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane). */
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** False for a wrong password and for a stored hash that cannot be read. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * Spends the time of a real verification when there is no user (or no password) to check, so an
 * attacker cannot tell from the answer time whether an e-mail exists.
 */
export async function verifyDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword('flightdeck-decoy-password');
  await verifyPassword(await decoyHash, password);
  return false;
}

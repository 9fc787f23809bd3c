import { z } from 'zod';
import { SubjectToken } from '../wire';
import { ServerPlatform } from './servers';

/**
 * Calls the host agent makes with the customer's agent access key (`Authorization: Bearer fdk_...`),
 * outside any session: `POST /agent/register` when it is installed.
 */

/**
 * A host name as a bus subject token (`fd.metrics.<tenant>.<host>`): lower-case, and every character
 * outside `[a-z0-9_-]` (dots of a fully qualified name included) becomes `-`. Cut to the 128
 * characters a token may hold. The agent and the api's registration both derive host keys with it.
 */
export function hostKeyFromHostname(name: string): string {
  const key = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .slice(0, 128);
  return key === '' ? 'unknown-host' : key;
}

/**
 * Identifies one system across re-installs: the agent sends a keyed hash of the machine id
 * (`/etc/machine-id`, Windows' MachineGuid), never the id itself.
 */
export const MachineId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,128}$/, 'expected 16 to 128 letters, digits, "_" or "-" (a hashed machine id)');

/**
 * `POST /agent/register` body. One install per system: registering again from the same machine
 * (a re-install) answers the same install and host key; another machine with the same access key
 * gets an install of its own.
 */
export const AgentRegisterRequest = z
  .object({
    machine_id: MachineId,
    hostname: z.string().trim().min(1).max(255),
    platform: ServerPlatform,
  })
  .strict();
export type AgentRegisterRequest = z.infer<typeof AgentRegisterRequest>;

/**
 * `POST /agent/register` → data: what the agent writes to its config file. `tenant` and `host_key`
 * name its bus subjects; `nats_url` is present only when the api knows a NATS address for agents
 * (otherwise the agent publishes through the api's HTTP ingest).
 */
export const AgentRegisterData = z
  .object({
    tenant: SubjectToken,
    host_key: SubjectToken,
    install_id: z.number().int().positive(),
    interval_s: z.number().int().positive(),
    nats_url: z.string().min(1).optional(),
  })
  .strict();
export type AgentRegisterData = z.infer<typeof AgentRegisterData>;

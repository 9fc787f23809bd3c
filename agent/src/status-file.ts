import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const STATUS_FILE = 'status.json';

const count = z.number().int().nonnegative();

/**
 * What the running agent reports about itself in the state directory, rewritten after every run;
 * `flightdeck-agent status` reads it. Times are unix milliseconds.
 */
export const AgentStatusFile = z.object({
  v: z.literal(1),
  pid: z.number().int().positive(),
  tenant: z.string(),
  host_key: z.string(),
  started_at: z.number().int(),
  updated_at: z.number().int(),
  /** Start of the last run; null before the first. */
  last_run_at: z.number().int().nullable(),
  runs: count,
  published: count,
  failed: count,
  heartbeats_failed: count,
  /** Batches waiting in the spool, and batches it dropped because it was full. */
  spool_depth: count,
  spool_dropped: count,
});
export type AgentStatusFile = z.infer<typeof AgentStatusFile>;

/** Replaces the status file in one rename, so `status` never reads half of it. */
export function writeStatusFile(stateDir: string, status: AgentStatusFile): void {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, STATUS_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(status)}\n`);
  renameSync(tmp, file);
}

/**
 * The last status the agent wrote: `undefined` when it never wrote one, `{ problem }` when the file
 * cannot be read or does not fit (named, so `status` can say so).
 */
export function readStatusFile(stateDir: string): AgentStatusFile | { problem: string } | undefined {
  const file = join(stateDir, STATUS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { problem: `${file}: cannot be read: ${(err as Error).message}` };
  }
  try {
    const parsed = AgentStatusFile.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    return { problem: `${file}: ${issue?.path.join('.')}: ${issue?.message}` };
  } catch (err) {
    return { problem: `${file}: not valid JSON: ${(err as Error).message}` };
  }
}

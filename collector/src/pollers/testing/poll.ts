import type { PollResult, PollSuccess } from '../contract';

/** The successful poll, or a thrown error naming the failure's code and message. */
export function ok(result: PollResult): PollSuccess {
  if (!result.ok) throw new Error(`poll failed: ${result.code}: ${result.message}`);
  return result;
}

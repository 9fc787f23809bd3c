import type { Db } from '../db/kysely';
import { countActiveUsers, countServers, countServices } from '../db/queries/customers';
import { ApiError } from '../errors';
import type { PlanContext } from './context';

/** What the plan limits by count. */
export const LIMITED_THINGS = ['users', 'services', 'servers'] as const;
export type LimitedThing = (typeof LIMITED_THINGS)[number];

/** A limit and how much of it the customer uses; `max` null = unlimited. */
export interface LimitStatus {
  max: number | null;
  used: number;
  /** Whether one more may be added. */
  can_add: boolean;
}

const COUNTERS: Record<LimitedThing, (db: Db, customerId: number) => Promise<number>> = {
  users: countActiveUsers,
  services: (db, customerId) => countServices(db, customerId),
  servers: countServers,
};

const REACHED_CODES = {
  users: 'user_limit_reached',
  services: 'service_limit_reached',
  servers: 'server_limit_reached',
} as const satisfies Record<LimitedThing, string>;

const REACHED_MESSAGES: Record<LimitedThing, (max: number) => string> = {
  users: (max) => `User limit reached: the plan allows ${max} active users.`,
  services: (max) => `Service limit reached: the plan allows ${max} services.`,
  servers: (max) => `Maximum number of servers reached: the plan allows ${max} servers.`,
};

/** The customer's use of one limit (users count only ACTIVE ones). */
export async function limitStatus(db: Db, plan: PlanContext, thing: LimitedThing): Promise<LimitStatus> {
  const max = plan.limits[thing];
  const used = await COUNTERS[thing](db, plan.customerId);
  return { max, used, can_add: max === null || used < max };
}

/**
 * Throws 409 `service_limit_reached` (`server_…`, `user_…`) when adding `adding` more of `thing` would pass the plan's limit; for the
 * calls that invite users or register servers and services.
 */
export async function assertWithinLimit(
  db: Db,
  plan: PlanContext,
  thing: LimitedThing,
  adding = 1,
): Promise<void> {
  const max = plan.limits[thing];
  if (max === null) return;
  const used = await COUNTERS[thing](db, plan.customerId);
  if (used + adding > max) throw ApiError.of(REACHED_CODES[thing], REACHED_MESSAGES[thing](max));
}

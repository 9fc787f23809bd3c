import { randomBytes } from 'node:crypto';
import type { CommandStatusData, PollerService } from '@flightdeck/schemas';
import type { ParsedConfig } from '../../agentless/configs';

/** A connection test's answer is kept this long for `command/status`. */
export const COMMAND_TTL_MS = 15 * 60_000;
/** A successful test allows registering exactly that config for this long. */
export const TESTED_CONFIG_TTL_MS = 10 * 60_000;
/** A config saved in the session is kept this long. */
export const SESSION_CONFIG_TTL_MS = 30 * 60_000;

interface PendingCommand {
  customerId: number;
  fingerprint: string;
  createdAt: number;
  status: CommandStatusData;
}

/**
 * What the onboarding calls remember between requests, in the api's memory: connection tests
 * and their answers (by random id, bound to the customer), which configs passed a test (by
 * fingerprint, never the config itself), and the config each session saved per service.
 */
export class OnboardingMemory {
  private readonly commands = new Map<string, PendingCommand>();
  private readonly tested = new Map<string, number>();
  private readonly saved = new Map<string, { config: ParsedConfig; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  private sweep(): void {
    const t = this.now();
    for (const [id, c] of this.commands) if (t - c.createdAt > COMMAND_TTL_MS) this.commands.delete(id);
    for (const [k, at] of this.tested) if (t - at > TESTED_CONFIG_TTL_MS) this.tested.delete(k);
    for (const [k, s] of this.saved) if (t - s.at > SESSION_CONFIG_TTL_MS) this.saved.delete(k);
  }

  startCommand(customerId: number, fingerprint: string): string {
    this.sweep();
    const id = randomBytes(16).toString('hex');
    this.commands.set(id, {
      customerId,
      fingerprint,
      createdAt: this.now(),
      status: { status: 'pending', message: 'The connection test is running.' },
    });
    return id;
  }

  finishCommand(id: string, status: CommandStatusData): void {
    const c = this.commands.get(id);
    if (!c) return;
    c.status = status;
    if (status.status === 'ok') this.tested.set(c.fingerprint, this.now());
  }

  /** The command's status, or undefined when it is unknown, expired or another customer's. */
  commandStatus(customerId: number, id: string): CommandStatusData | undefined {
    this.sweep();
    const c = this.commands.get(id);
    return c && c.customerId === customerId ? c.status : undefined;
  }

  passedTest(fingerprint: string): boolean {
    this.sweep();
    return this.tested.has(fingerprint);
  }

  saveConfig(sessionId: number, service: PollerService, config: ParsedConfig): void {
    this.saved.set(`${sessionId}/${service}`, { config, at: this.now() });
  }

  savedConfig(sessionId: number, service: PollerService): ParsedConfig | undefined {
    this.sweep();
    return this.saved.get(`${sessionId}/${service}`)?.config;
  }
}

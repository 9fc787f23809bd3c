import type { Logger } from 'pino';
import { errorMessage } from './failure';

/**
 * Warnings about optional sections of a poll (a view the user may not read, a query that timed out).
 * Each is logged with the target when it first happens or its message changes, not on every poll,
 * and logged again as resolved once the section reads.
 */
export class SectionWarnings {
  private readonly last = new Map<string, string>();

  constructor(
    private readonly logger: Logger,
    private readonly service: string,
    private readonly target: string,
  ) {}

  warn(section: string, err: unknown): void {
    const message = errorMessage(err);
    if (this.last.get(section) === message) return;
    this.last.set(section, message);
    this.logger.warn(
      { service: this.service, target: this.target, section, err: message },
      `${this.service} poller: could not read ${section} of ${this.target}; polling goes on without it`,
    );
  }

  clear(section: string): void {
    if (!this.last.delete(section)) return;
    this.logger.info(
      { service: this.service, target: this.target, section },
      `${section} of ${this.target} reads again`,
    );
  }
}

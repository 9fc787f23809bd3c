/**
 * One driver client of a target, opened on first use and closed once nobody has used it for
 * `idleMs`: between polls a target holds no connection, so a collector's open connections follow
 * its polls in flight, not its number of targets. Used by the pollers whose drivers keep their
 * own pool inside one client object (Neo4j, Cassandra).
 */
export class IdleClient<C> {
  private client: C | undefined;
  private users = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly open: () => C,
    private readonly shut: (client: C) => Promise<void>,
    private readonly idleMs: number,
  ) {}

  /** Runs `work` with the client, opening it when there is none. */
  async use<T>(work: (client: C) => Promise<T>): Promise<T> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.client ??= this.open();
    const client = this.client;
    this.users++;
    try {
      return await work(client);
    } finally {
      this.users--;
      if (this.users === 0 && this.client === client) {
        this.timer = setTimeout(() => void this.close(), this.idleMs);
        this.timer.unref();
      }
    }
  }

  /**
   * Drops the current client (a query timed out on it, or its connect failed): the next use opens
   * a new one. Work still running on it ends with the driver's error.
   */
  discard(): Promise<void> {
    return this.close();
  }

  /** Whether a client is open now. */
  get isOpen(): boolean {
    return this.client !== undefined;
  }

  /** Closes the client now, if there is one. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) await this.shut(client);
  }
}

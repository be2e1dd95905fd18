/**
 * The SQLite Db's gate (sqlite-database.ts): a transaction holds the one connection across the
 * awaits of its body, and every other statement of this process waits here until it ends. A wait
 * longer than GATE_WAIT_MS fails: a transaction of this process is stuck, or a statement on the
 * root handle was issued from inside a transaction (it would wait for itself).
 */
const GATE_WAIT_MS = 10_000;

/** Who holds the connection: the transaction in progress and those waiting for it. */
export class ConnectionGate {
  held = false;
  private waiting: (() => void)[] = [];

  constructor(private readonly waitMs = GATE_WAIT_MS) {}

  /** Resolves once no transaction holds the connection. */
  async pass(): Promise<void> {
    while (this.held) await this.wait();
  }

  async acquire(): Promise<void> {
    while (this.held) await this.wait();
    this.held = true;
  }

  release(): void {
    this.held = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  private wait(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== wake);
        reject(
          new Error(
            `database busy: a transaction of this process has held the connection for ${this.waitMs / 1000} s ` +
              "(a statement on the root handle inside a transaction waits for itself)",
          ),
        );
      }, this.waitMs);
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiting.push(wake);
    });
  }
}

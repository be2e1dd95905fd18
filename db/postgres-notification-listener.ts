/**
 * The PostgreSQL Db's LISTEN side (postgres-database.ts): one connection of its own for every
 * channel this process listens to, which reconnects by itself after a drop.
 */
import pg from "pg";
import { describeError, log } from "@/lib/log";

/** LISTEN on a connection of its own, for every channel this process listens to; reconnects after a drop. */
export class NotificationListener {
  private client?: pg.Client;
  private connecting?: Promise<pg.Client>;
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly connectTimeoutMs: number,
  ) {}

  async add(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.channels.get(channel);
    const fresh = !set;
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(listener);
    const client = await this.connect();
    if (fresh) await client.query(`listen ${quoteIdent(channel)}`);
    return async () => {
      set.delete(listener);
    };
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: this.connectTimeoutMs });
      client.on("notification", (message) => {
        for (const listener of this.channels.get(message.channel) ?? []) listener(message.payload ?? "");
      });
      client.on("error", (error) => {
        log.warn("postgres notification connection lost; reconnecting", describeError(error));
        this.client = undefined;
        if (!this.closed) setTimeout(() => void this.reconnect(), 1_000).unref();
      });
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`listen ${quoteIdent(channel)}`);
      this.client = client;
      this.connecting = undefined;
      return client;
    })().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private async reconnect(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      log.warn("postgres notification connection: reconnect failed", describeError(error));
      if (!this.closed) setTimeout(() => void this.reconnect(), 2_000).unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Process-wide registries of open databases, kept on globalThis. Next.js loads the server's
 * start-up work, its route handlers and its pages each with a copy of the db modules; a
 * registry held in a module variable would be one per copy, and each copy would open its own
 * connections. One of these maps is shared by every copy in the process.
 */
export function processWide<T>(name: string): Map<string, T> {
  const key = Symbol.for(`insika.${name}`);
  const holder = globalThis as unknown as Record<symbol, Map<string, T> | undefined>;
  return (holder[key] ??= new Map());
}

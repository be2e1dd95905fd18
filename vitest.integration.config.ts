import { defineConfig } from "vitest/config";

// Integration tests start the real (built) server; run after `next build`.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["test/**/*.int.test.ts"],
    environment: "node",
    // Fails a file whose server logged an uncaughtException or unhandledRejection, then
    // removes the file's temporary directories (listed first: stacked hooks run it last).
    setupFiles: ["test/support/temp-dir-hook.ts", "test/support/server-log-hook.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two files at a time: each starts servers of its own (own port, data directory and, on
    // PostgreSQL, database), so they share nothing but the machine (decisions.md,
    // "Integration files two at a time").
    fileParallelism: true,
    maxWorkers: 2,
  },
});

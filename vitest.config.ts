import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      "lib/**/*.test.ts",
      "db/**/*.test.ts",
      "cli/**/*.test.ts",
      "components/**/*.test.ts",
      "test/unit/**/*.test.ts",
    ],
    environment: "node",
    // Removes each test file's temporary directories after it.
    setupFiles: ["test/support/temp-dir-hook.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});

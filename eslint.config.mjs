// Lint: typescript-eslint's recommended rules plus the architecture of DESIGN.md §3:
// imports flow one way (the pure core never reaches db/, next/, app/ or components/),
// and global fetch is banned outside lib/egress (one guarded HTTP client).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const PURE_CORE_BANS = [
  { group: ["next", "next/*"], message: "lib/engine and lib/tools are pure: no next/* (DESIGN §3.1)" },
  { group: ["@/db", "@/db/*", "**/db/*"], message: "lib/engine and lib/tools are pure: no db/ (DESIGN §3.1)" },
  { group: ["@/app/*", "@/components/*"], message: "lib/engine and lib/tools are pure (DESIGN §3.1)" },
  {
    group: ["@/lib/services/*", "@/lib/api/*"],
    message: "the core does not depend on the layers above it (DESIGN §3.1)",
  },
];

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      ".tmp/**",
      "node_modules/**",
      "data/**",
      "db/migrations/**",
      "db/migrations-pg/**",
      "public/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly" } },
    rules: {
      "no-undef": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "no-restricted-globals": ["error", { name: "fetch", message: "send through lib/egress (DESIGN §3.11)" }],
      "no-restricted-properties": [
        "error",
        { object: "globalThis", property: "fetch", message: "send through lib/egress (DESIGN §3.11)" },
      ],
    },
  },
  {
    files: ["lib/engine/**", "lib/tools/**"],
    rules: { "no-restricted-imports": ["error", { patterns: PURE_CORE_BANS }] },
  },
  {
    files: ["lib/egress/**", "lib/http-tools/**", "lib/mcp/**", "lib/openapi/**", "lib/providers/dialects/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...PURE_CORE_BANS.slice(0, 3),
            { group: ["@/lib/services/*"], message: "services call down, not up (DESIGN §3.1)" },
          ],
        },
      ],
    },
  },
  {
    // Services are use cases: no HTTP (no lib/api, no next/*, no Response), nothing above them.
    files: ["lib/services/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/api", "@/lib/api/*"],
              message:
                "services know nothing of HTTP: throw a DomainError (lib/errors.ts); the edge maps it (DESIGN §3.4)",
            },
            { group: ["next", "next/*"], message: "services know nothing of HTTP or Next.js" },
            { group: ["@/app/*", "@/components/*"], message: "services call down, not up (DESIGN §3.1)" },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        { name: "fetch", message: "send through lib/egress (DESIGN §3.11)" },
        { name: "Response", message: "services build no Response: the edge (lib/api) does" },
      ],
    },
  },
  {
    // Studio pages and components reach data through services (and the edge's studioDb), never db/ directly.
    files: ["app/(studio)/**", "components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/db", "@/db/*"], message: "the Studio reaches data through lib/services (DESIGN §3.1)" },
          ],
        },
      ],
    },
  },
  {
    // lib/api is the edge: it may call services, never the other way round; the core stays below both.
    files: ["lib/api/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ group: ["@/app/*", "@/components/*"], message: "the edge does not import pages or components" }],
        },
      ],
    },
  },
  {
    files: ["db/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/services/*", "@/lib/api/*", "@/app/*", "@/components/*", "next", "next/*"],
              message: "db/ is below services (DESIGN §3.1)",
            },
          ],
        },
      ],
    },
  },
  {
    // Provider calls go through lib/egress too (createProviderFetch); tests may call their own loopback servers; e2e/bench/examples drive the app.
    files: ["lib/egress/**", "**/*.test.ts", "test/**", "e2e/**", "bench/**", "scripts/**", "examples/**"],
    rules: { "no-restricted-globals": "off", "no-restricted-properties": "off" },
  },
  {
    // The database layer is asynchronous: a promise nobody awaits is a write nobody waits for
    // (or a failure nobody sees). Type-aware, for the code that runs in the product.
    files: [
      "lib/**/*.ts",
      "db/**/*.ts",
      "app/**/*.ts",
      "app/**/*.tsx",
      "components/**/*.tsx",
      "cli/**/*.ts",
      "bench/**/*.ts",
      "proxy.ts",
      "instrumentation.ts",
      "test/**/*.ts",
      "e2e/**/*.ts",
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": [
        "error",
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    // Tests read arbitrary JSON responses; typing every one of them would add noise, not safety.
    files: ["**/*.test.ts", "test/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);

#!/usr/bin/env node
// Compiles the benches (bench/*.ts and what they import from lib/, db/ and test/support/)
// into .tmp/bench/, the way the production build compiles the server: plain JavaScript,
// packages left in node_modules. `npm run bench` runs that output rather than the sources
// under tsx, whose transform keeps every function's name with a runtime call as the function
// is made (esbuild's keepNames, which tsx always sets); the production build makes no such
// call, and the packages a baseline runs are not transformed, so only Insika's side paid it
// (docs/decisions.md, perf, "The benches run compiled code").
import { build } from "esbuild";

/** The bench's entry points: the runner, and the scripts it starts as processes of their own. */
const ENTRIES = ["run", "backend-process", "model-server-process", "aisdk-server-process"];

await build({
  entryPoints: ENTRIES.map((name) => `bench/${name}.ts`),
  outdir: ".tmp/bench",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  tsconfig: "tsconfig.json",
  sourcemap: "linked",
  logLevel: "warning",
});

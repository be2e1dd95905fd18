/**
 * `npm run bench` runs every benchmark, each in its own process (a clean heap and
 * a clean peak-RSS counter), and writes bench-results.json and bench-results.md.
 * `npm run bench -- NAME [NAME...]` runs only those; with one NAME it runs in this
 * process, so `node --cpu-prof .tmp/bench/run.mjs NAME` profiles it. It runs compiled
 * (bench/compile.mjs, which `npm run bench` runs first); `npx tsx bench/run.ts` runs the
 * sources, slower on Insika's side only.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { childExecArgv } from "./fixtures";
import { markdown, machineInfo, say, writeResults, type Row } from "./harness";
import { ownChild } from "../test/support/owned-children";
import { tempDir } from "../test/support/temp-dir";

type BenchModule = { default: () => Promise<Row[]>; child?: (args: string[]) => Promise<unknown> };

const BENCHES: Record<string, () => Promise<BenchModule>> = {
  "data-call": () => import("./data-call"),
  turn: () => import("./turn"),
  parallel: () => import("./parallel"),
  "mcp-call": () => import("./mcp-call"),
  catalog: () => import("./catalog"),
  "trace-write": () => import("./trace-write"),
  studio: () => import("./studio"),
  postgres: () => import("./postgres"),
  "openapi-import": () => import("./openapi-import"),
  "http-turn": () => import("./http-turn"),
};

const SELF = fileURLToPath(import.meta.url);

/** Runs this file again as `--child NAME OUT [ARGS...]` and returns what the child wrote to OUT. */
export async function inChild<T>(name: string, args: string[] = []): Promise<T> {
  const out = path.join(tempDir("insika-bench-"), "out.json");
  const child = ownChild(
    spawn(process.execPath, [...childExecArgv(), SELF, "--child", name, out, ...args], { stdio: "inherit" }),
  );
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`bench ${name} ${args.join(" ")} exited with ${code}`);
  return JSON.parse(fs.readFileSync(out, "utf8")) as T;
}

async function load(name: string): Promise<BenchModule> {
  const loader = BENCHES[name];
  if (!loader) throw new Error(`unknown bench '${name}'; known: ${Object.keys(BENCHES).join(", ")}`);
  return loader();
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === "--child") {
    // A child: the whole bench (no ARGS) or one of its sub-measurements (ARGS).
    const [, name = "", out = "", ...args] = argv;
    const mod = await load(name);
    const result = args.length > 0 && mod.child ? await mod.child(args) : await mod.default();
    fs.writeFileSync(out, JSON.stringify(result));
    process.exit(0);
  }
  const names = argv.length > 0 ? argv : Object.keys(BENCHES);
  const started = performance.now();
  const rows: Row[] = [];
  const failed: string[] = [];
  for (const name of names) {
    say(`\n== ${name}`);
    const t = performance.now();
    try {
      rows.push(...(names.length === 1 ? await (await load(name)).default() : await inChild<Row[]>(name)));
    } catch (error) {
      // One broken bench must not cost the others' results.
      failed.push(name);
      say(`== ${name} FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
    say(`== ${name} took ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  writeResults(rows);
  say(`\n${markdown(rows, machineInfo())}`);
  say(
    `wrote bench-results.json and bench-results.md (${((performance.now() - started) / 1000).toFixed(0)} s)${failed.length ? `; failed: ${failed.join(", ")}` : ""}`,
  );
  process.exit(failed.length ? 1 : 0);
}

// Only when run, not when a bench imports inChild from here.
if (process.argv[1] && path.resolve(process.argv[1]) === SELF) void main(process.argv.slice(2));

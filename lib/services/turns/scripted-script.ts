/**
 * Provider "scripted" for tests that drive the real server: the script is
 * `<INSIKA_SCRIPTED_DIR>/<model>.json`, read at each turn, either a list of
 * steps or `{ "turns": { "<user message>": steps }, "steps": default }`.
 * Without INSIKA_SCRIPTED_DIR the provider is refused.
 *
 * The object form may also say `"crash_after": "<event type>[:<n>]"`: the server process
 * kills itself (SIGKILL) right after persisting the n-th such event of a fresh turn — the
 * crash tests' deterministic kill points. Only this test-only provider can ask for it.
 * A text part that is exactly `{{system}}` streams the system message the model was sent.
 */
import fs from "node:fs";
import path from "node:path";
import type { EngineEvent, Model } from "@/lib/engine/ports";
import { scriptedModel, type ScriptedPart, type ScriptedStep } from "@/lib/providers/scripted";

type Steps = ScriptedPart[][];

const SYSTEM_ECHO = "{{system}}";

export interface CrashPoint {
  type: string;
  count: number;
}

interface Script {
  steps: Steps;
  crashAfter?: CrashPoint;
}

type ScriptFile = Steps | { turns?: Record<string, Steps>; steps?: Steps; crash_after?: string };

/** Parsed scripts by path, reused while the file's size and modification time stay the same. */
const parsed = new Map<string, { stamp: string; script: ScriptFile }>();

function readScriptFile(file: string): ScriptFile {
  const stat = fs.statSync(file, { bigint: true });
  const stamp = `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  const cached = parsed.get(file);
  if (cached?.stamp === stamp) return cached.script;
  const script = JSON.parse(fs.readFileSync(file, "utf8")) as ScriptFile;
  parsed.set(file, { stamp, script });
  return script;
}

function readScript(dir: string | undefined, name: string, userMessage: string): Script {
  if (!dir) throw new Error('provider "scripted" is for tests: set INSIKA_SCRIPTED_DIR');
  if (!/^[A-Za-z0-9_.-]+$/.test(name) || name.includes("..")) throw new Error(`bad scripted model name: ${name}`);
  const script = readScriptFile(path.join(dir, `${name}.json`));
  if (Array.isArray(script)) return { steps: script };
  const steps =
    (script.turns && Object.hasOwn(script.turns, userMessage) ? script.turns[userMessage] : script.steps) ?? [];
  return script.crash_after ? { steps, crashAfter: parseCrashPoint(script.crash_after) } : { steps };
}

function parseCrashPoint(text: string): CrashPoint {
  const [type = "", count = "1"] = text.split(":");
  const n = Number(count);
  if (type === "" || !Number.isInteger(n) || n < 1) throw new Error(`bad crash_after: ${text}`);
  return { type, count: n };
}

/**
 * The scripted model for one turn, and the script's crash point when `fresh` (a resumed
 * turn never crashes again); throws a clear configuration error when unavailable. One read
 * of the script serves both. `startStep` skips the steps an interrupted turn already played
 * (a resumed turn asks for step N first, and a fresh scripted model would otherwise answer
 * with step 0).
 */
export function loadScriptedModel(
  dir: string | undefined,
  name: string,
  userMessage: string,
  options: { startStep: number; fresh: boolean },
): { model: Model; crashAfter?: CrashPoint } {
  const { steps, crashAfter } = readScript(dir, name, userMessage);
  const model = scriptedModel(steps.slice(Math.max(0, options.startStep)).map(echoSystem), { id: `scripted:${name}` });
  return options.fresh && crashAfter ? { model, crashAfter } : { model };
}

/** A text part that is exactly `{{system}}` streams the request's system message (tests read the prompt through it). */
function echoSystem(parts: ScriptedPart[]): ScriptedStep {
  if (!parts.some((part) => part.type === "text" && part.text === SYSTEM_ECHO)) return parts;
  return (request) => {
    const system = request.messages.find((message) => message.role === "system")?.content ?? "";
    return parts.map((part) => (part.type === "text" && part.text === SYSTEM_ECHO ? { ...part, text: system } : part));
  };
}

/** An afterEvent hook that kills this process at the crash point. */
export function crashHook(point: CrashPoint): (event: EngineEvent) => void {
  let seen = 0;
  return (event) => {
    if (event.type !== point.type) return;
    seen += 1;
    if (seen === point.count) process.kill(process.pid, "SIGKILL");
  };
}

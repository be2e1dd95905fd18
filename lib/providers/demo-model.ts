/**
 * The offline `demo` model for the first-run Studio (DESIGN D12). It is not an LLM and says so.
 * Deterministic rules, applied to the conversation it is given:
 *
 * 1. The last message is a tool result: answer with one sentence per trailing tool result
 *    containing the result JSON (compacted, clipped to 300 characters).
 * 2. Otherwise the latest user message is read. If it names an offered tool (whole-word,
 *    case-insensitive; the earliest one mentioned wins), the model calls that tool once, with the
 *    message's `key=value` pairs as arguments. Values stay strings unless the tool's JSON Schema
 *    types that property as integer/number/boolean (then `3`, `2.5`, `true` are parsed) or as
 *    array/object (then a JSON value such as `ids=[1,2]` is parsed). `key="a quoted value"`
 *    (with \" escapes) and `key='single quoted'` are always strings. Before the call it streams
 *    the lead-in "Calling <tool>…" unless the message contains the word `quiet`.
 * 3. No offered tool named, but `tool_search` is offered and the message names a tool that
 *    the system prompt lists as available (a deferred one): it calls `tool_search` with that name; when the search
 *    result comes back and the named tool is now offered, it calls that tool as in rule 2.
 * 4. No tool named: it says it is the demo model, lists the offered tools, and gives an example.
 *
 * Words inside `key=value` pairs never count as a tool name or as `quiet`.
 */
import type {
  Model,
  ModelMessage,
  ModelRequest,
  ModelStreamPart,
  ModelToolCall,
  ModelToolSpec,
} from "@/lib/engine/ports";

const RESULT_CLIP = 300;
const NOT_AN_LLM = "I am Insika's offline demo model, not an LLM";

const PAIR = /(^|\s)([A-Za-z_][A-Za-z0-9_.-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g;

interface DemoStep {
  text: string;
  call?: ModelToolCall;
}

/** The deterministic, offline demo model (no network, no randomness). */
export class DemoModel implements Model {
  readonly id = "demo";

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    request.signal.throwIfAborted();
    const step = planDemoStep(request.messages, request.tools);
    for (const chunk of chunkText(step.text)) yield { type: "text-delta", text: chunk };
    if (step.call) yield { type: "tool-call", call: step.call };
    yield { type: "finish" };
  }
}

/** What the demo model does for this conversation (exported for tests and the Studio hint). */
export function planDemoStep(messages: ModelMessage[], tools: ModelToolSpec[]): DemoStep {
  const last = messages[messages.length - 1];
  const user = [...messages].reverse().find((m) => m.role === "user");
  const text = user?.content ?? "";
  const pairs = parsePairs(text);
  const words = text.replace(PAIR, "$1 ");
  const tool = findNamedTool(words, tools);

  if (last?.role === "tool") {
    // After tool_search promoted the tool the user named, call it (rule 3).
    if (last.tool === "tool_search" && tool && tool.name !== "tool_search") {
      return { text: "", call: demoCall(messages, tool, pairs) };
    }
    return { text: describeResults(trailingToolResults(messages)) };
  }
  if (!tool) {
    const wanted = deferredToolName(words, tools, messages);
    const search = tools.find((t) => t.name === "tool_search");
    if (wanted && search) {
      return {
        text: `Looking for ${wanted}…`,
        call: demoCall(messages, search, [{ key: "query", value: wanted, quoted: true }]),
      };
    }
    return { text: describeTools(tools) };
  }

  const call = demoCall(messages, tool, pairs);
  const quiet = /(^|[^A-Za-z0-9_])quiet([^A-Za-z0-9_]|$)/i.test(words);
  return { text: quiet ? "" : `Calling ${tool.name}…`, call };
}

function demoCall(messages: ModelMessage[], tool: ModelToolSpec, pairs: Pair[]): ModelToolCall {
  return {
    id: `demo_call_${countToolCalls(messages) + 1}`,
    name: tool.name,
    arguments: JSON.stringify(buildArguments(pairs, tool.parameters)),
  };
}

/** A word of the message that names a tool listed in the system prompt's available (deferred) tools. */
function deferredToolName(words: string, tools: ModelToolSpec[], messages: ModelMessage[]): string | undefined {
  const offered = new Set(tools.map((t) => t.name));
  const system = messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
  // A word the system prompt holds whole: between characters other than [a-z0-9_], as a run of them.
  const listed = new Set(system.match(/[a-z0-9_]+/g));
  return words.match(/\b[a-z][a-z0-9_]*\b/g)?.find((w) => !offered.has(w) && listed.has(w));
}

function trailingToolResults(messages: ModelMessage[]): Extract<ModelMessage, { role: "tool" }>[] {
  const results: Extract<ModelMessage, { role: "tool" }>[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== "tool") break;
    results.unshift(message);
  }
  return results;
}

function describeResults(results: Extract<ModelMessage, { role: "tool" }>[]): string {
  const sentences = results.map((r) => `The tool ${r.tool} returned: ${clipJson(r.content)}.`);
  return `${sentences.join(" ")} (${NOT_AN_LLM}: I call the tool you name and repeat what it returned.)`;
}

function describeTools(tools: ModelToolSpec[]): string {
  if (tools.length === 0) {
    return `${NOT_AN_LLM}. This agent offers no tools, so there is nothing for me to call.`;
  }
  const first = tools[0] as ModelToolSpec;
  const names = tools.map((t) => t.name).join(", ");
  return `${NOT_AN_LLM}: I only call a tool when your message names it. Offered tools: ${names}. Example: ${exampleCall(first)}`;
}

function exampleCall(tool: ModelToolSpec): string {
  const properties = propertiesOf(tool.parameters);
  const required = (tool.parameters as { required?: unknown }).required;
  const firstRequired = Array.isArray(required) ? required.find((r): r is string => typeof r === "string") : undefined;
  const key = firstRequired ?? [...properties.keys()][0];
  if (!key) return tool.name;
  const types = typesOf(properties.get(key));
  const value = types.has("integer") || types.has("number") ? "1" : types.has("boolean") ? "true" : "example";
  return `${tool.name} ${key}=${value}`;
}

/**
 * The offered tool the text names first: a name written whole, any case, between characters
 * other than [A-Za-z0-9_-]. Tool names are runs of [a-z0-9_] (validate-definition.ts), so a
 * name is written whole exactly when a run of [A-Za-z0-9_-] is that name: one pass over the
 * text, whatever the number of tools (no expression built per tool).
 */
function findNamedTool(text: string, tools: ModelToolSpec[]): ModelToolSpec | undefined {
  const firstAt = new Map<string, number>();
  for (const run of text.matchAll(/[A-Za-z0-9_-]+/g)) {
    const word = run[0].toLowerCase();
    if (!firstAt.has(word)) firstAt.set(word, run.index);
  }
  let best: { tool: ModelToolSpec; index: number } | undefined;
  for (const tool of tools) {
    const index = firstAt.get(tool.name.toLowerCase());
    if (index !== undefined && (!best || index < best.index)) best = { tool, index };
  }
  return best?.tool;
}

interface Pair {
  key: string;
  value: string;
  quoted: boolean;
}

/** `key=value` pairs in order; a later pair with the same key wins. */
export function parsePairs(text: string): Pair[] {
  const pairs: Pair[] = [];
  for (const match of text.matchAll(PAIR)) {
    const key = match[2] as string;
    const raw = match[3] ?? "";
    if (raw.startsWith('"') && raw.length >= 2) {
      let value: string;
      try {
        value = JSON.parse(raw) as string;
      } catch {
        value = raw.slice(1, -1);
      }
      pairs.push({ key, value, quoted: true });
    } else if (raw.startsWith("'") && raw.length >= 2) {
      pairs.push({ key, value: raw.slice(1, -1), quoted: true });
    } else {
      pairs.push({ key, value: raw, quoted: false });
    }
  }
  return pairs;
}

function buildArguments(pairs: Pair[], schema: ModelToolSpec["parameters"]): Record<string, unknown> {
  const properties = propertiesOf(schema);
  const args = new Map<string, unknown>();
  for (const pair of pairs) {
    args.set(pair.key, pair.quoted ? pair.value : coerce(pair.value, typesOf(properties.get(pair.key))));
  }
  // fromEntries defines own properties, so a key like "__proto__" stays a plain key.
  return Object.fromEntries(args);
}

function coerce(value: string, types: Set<string>): unknown {
  if (types.has("integer") && /^-?\d+$/.test(value)) return Number(value);
  // Digits after the point only after a point: no two quantifiers share a run of digits, so a
  // long run that fails at its end is not tried split every way (linear, not quadratic).
  if (types.has("number") && /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(value)) return Number(value);
  if (types.has("boolean") && (value === "true" || value === "false")) return value === "true";
  if (types.has("array") || types.has("object")) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed) ? types.has("array") : parsed !== null && typeof parsed === "object") {
        return parsed;
      }
    } catch {
      // not JSON: keep the string
    }
  }
  return value;
}

function propertiesOf(schema: ModelToolSpec["parameters"]): Map<string, unknown> {
  const properties = (schema as { properties?: unknown }).properties;
  if (properties === null || typeof properties !== "object") return new Map();
  return new Map(Object.entries(properties as Record<string, unknown>));
}

function typesOf(property: unknown): Set<string> {
  if (property === null || typeof property !== "object") return new Set();
  const type = (property as { type?: unknown }).type;
  const list = Array.isArray(type) ? type : [type];
  return new Set(list.filter((t): t is string => typeof t === "string"));
}

function countToolCalls(messages: ModelMessage[]): number {
  let count = 0;
  for (const message of messages) {
    if (message.role === "assistant") count += message.toolCalls?.length ?? 0;
  }
  return count;
}

function clipJson(content: string): string {
  let text = content;
  try {
    text = JSON.stringify(JSON.parse(content));
  } catch {
    // not JSON: show the text as it came
  }
  return text.length > RESULT_CLIP ? `${text.slice(0, RESULT_CLIP)}…` : text;
}

/** Splits text into at most four chunks on word boundaries (the demo still "streams"). */
function chunkText(text: string): string[] {
  if (text === "") return [];
  const words = text.split(/(?<= )/);
  const size = Math.ceil(words.length / Math.min(4, words.length));
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += size) chunks.push(words.slice(i, i + size).join(""));
  return chunks;
}

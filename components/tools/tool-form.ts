/**
 * The tool editor's form model. `toForm` reads a stored definition into the
 * fields the editor renders; `fromForm` writes them back ON TOP OF the stored
 * definition, so any stored field the editor does not render (request.protocol,
 * request.mcp_tool, fields added later) is carried through unchanged (DESIGN D11).
 */
import { toFlatSugar } from "@/lib/tools/flat-sugar";

export interface ToolForm {
  name: string;
  description: string;
  group: string;
  tags: string;
  paramsMode: "flat" | "json";
  paramsText: string;
  method: string;
  url: string;
  headers: string;
  query: string;
  body: string;
  secretHeaders: string;
  extract: string;
  path: string;
  sideEffect: "auto" | "true" | "false";
  timeout: string;
  halt: boolean;
  haltPath: string;
  haltEquals: string;
  sayMode: "none" | "text" | "json_path";
  say: string;
}

export type Stored = Record<string, unknown>;

const obj = (v: unknown): Stored => (v && typeof v === "object" && !Array.isArray(v) ? (v as Stored) : {});
const str = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
const list = (v: unknown) => (Array.isArray(v) ? v.map(str) : []);
const lines = (map: Stored) =>
  Object.entries(map)
    .map(([k, v]) => `${k}: ${str(v)}`)
    .join("\n");

export const NEW_TOOL_PARAMS = "query | string | required | What to look for";

/** The form for a stored definition (or a blank one for a new tool). */
export function toForm(stored: Stored | null): ToolForm {
  const def = stored ?? {};
  const request = obj(def.request);
  const response = obj(def.response);
  const halt = def.halt_when ? obj(def.halt_when) : null;
  const say = halt ? obj(halt.say) : {};
  const flat = stored ? toFlatSugar(def.parameters) : NEW_TOOL_PARAMS;
  return {
    name: str(def.name),
    description: str(def.description),
    group: str(def.group),
    tags: list(def.tags).join(", "),
    paramsMode: flat !== null ? "flat" : "json",
    paramsText: flat ?? JSON.stringify(def.parameters ?? { type: "object", properties: {} }, null, 2),
    method: str(request.method) || "GET",
    url: str(request.url),
    headers: lines(obj(request.headers)),
    query: lines(obj(request.query)),
    body: request.body === undefined ? "" : JSON.stringify(request.body, null, 2),
    secretHeaders: list(def.secret_headers).join(", "),
    extract: str(response.extract) || "body_raw",
    path: str(response.path),
    sideEffect: typeof def.side_effect === "boolean" ? (def.side_effect ? "true" : "false") : "auto",
    timeout: def.timeout === undefined ? "" : str(def.timeout),
    halt: halt !== null,
    haltPath: halt ? str(halt.json_path) : "tool_result.status",
    haltEquals: halt ? list(halt.equals).join(", ") : "",
    sayMode: say.text !== undefined ? "text" : say.json_path !== undefined ? "json_path" : "none",
    say: str(say.text ?? say.json_path),
  };
}

export type FieldKey = keyof ToolForm | "general";
export interface FormProblem {
  field: FieldKey;
  message: string;
}

const csv = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function parseLines(text: string, field: FieldKey, label: string, problems: FormProblem[]): Stored {
  const out: Stored = {};
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return;
    const at = line.indexOf(":");
    if (at <= 0) problems.push({ field, message: `${label} line ${i + 1}: expected 'name: value'` });
    else
      Object.defineProperty(out, line.slice(0, at).trim(), {
        value: line.slice(at + 1).trim(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  });
  return out;
}

/** The definition to send: the stored one with every rendered field replaced. */
export function fromForm(form: ToolForm, stored: Stored | null): { definition: Stored; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const base = stored ?? {};
  const request: Stored = {
    ...obj(base.request),
    method: form.method,
    url: form.url.trim(),
    headers: parseLines(form.headers, "headers", "headers", problems),
    query: parseLines(form.query, "query", "query", problems),
  };
  delete request.body;
  if (form.body.trim() !== "") {
    try {
      request.body = JSON.parse(form.body);
    } catch (error) {
      problems.push({ field: "body", message: `request.body must be JSON (${(error as Error).message})` });
    }
  }
  const definition: Stored = {
    ...base,
    name: form.name.trim(),
    description: form.description,
    parameters: form.paramsText,
    request,
    response:
      form.extract === "json_path" ? { extract: "json_path", path: form.path.trim() } : { extract: form.extract },
    secret_headers: csv(form.secretHeaders),
    group: form.group.trim() === "" ? null : form.group.trim(),
    tags: csv(form.tags),
  };
  delete definition.version;
  delete definition.updated_at;
  delete definition.kind;
  if (form.sideEffect === "auto") delete definition.side_effect;
  else definition.side_effect = form.sideEffect === "true";
  if (form.timeout.trim() === "") delete definition.timeout;
  else definition.timeout = Number(form.timeout);
  if (!form.halt) delete definition.halt_when;
  else {
    const halt: Stored = { json_path: form.haltPath.trim(), equals: csv(form.haltEquals) };
    if (form.sayMode !== "none") halt.say = { [form.sayMode]: form.say };
    definition.halt_when = halt;
  }
  return { definition, problems };
}

/** The agent settings form: fields in, the PUT /v1/agents body out (carrying every field it does not render). */
export interface AgentFormState {
  id: string;
  name: string;
  instructions: string;
  provider: string;
  model: string;
  base_url: string;
  api_key_secret: string;
  /** "on": model.strict (schemas compiled to the provider's dialect when sent). */
  strict: "on" | "off";
  store_id: string;
  tool_concurrency: string;
  max_tool_calls: string;
  turn_timeout: string;
  tool_timeout: string;
  max_subagent_turns: string;
}

const LIMIT_FIELDS = [
  "tool_concurrency",
  "max_tool_calls",
  "turn_timeout",
  "tool_timeout",
  "max_subagent_turns",
] as const;

type Body = Record<string, unknown>;
const obj = (v: unknown): Body => (v && typeof v === "object" ? (v as Body) : {});
const s = (v: unknown) => (v === undefined || v === null ? "" : String(v));

export function toAgentForm(id: string, body: Body | null): AgentFormState {
  const model = obj(body?.model);
  const limits = obj(body?.limits);
  return {
    id,
    name: s(body?.name),
    instructions: s(body?.instructions),
    provider: s(model.provider) || "demo",
    model: s(model.model) || "demo",
    base_url: s(model.base_url),
    api_key_secret: s(model.api_key_secret),
    strict: model.strict === true ? "on" : "off",
    store_id: s(obj(body?.metadata).store_id),
    tool_concurrency: s(limits.tool_concurrency ?? 1),
    max_tool_calls: s(limits.max_tool_calls ?? 50),
    turn_timeout: s(limits.turn_timeout ?? 300),
    tool_timeout: s(limits.tool_timeout ?? 60),
    max_subagent_turns: s(limits.max_subagent_turns ?? 20),
  };
}

const num = (text: string) => (text.trim() === "" ? undefined : Number(text));

export function fromAgentForm(f: AgentFormState, stored: Body | null): Body {
  const model: Body = { provider: f.provider, model: f.model.trim() };
  if (f.base_url.trim()) model.base_url = f.base_url.trim();
  if (f.api_key_secret.trim()) model.api_key_secret = f.api_key_secret.trim();
  if (f.strict === "on") model.strict = true;
  const metadata: Body = { ...obj(stored?.metadata) };
  if (f.store_id.trim()) metadata.store_id = f.store_id.trim();
  else delete metadata.store_id;
  // A limit the form does not render (added later) is carried through; a rendered one left empty takes the default.
  const limits: Body = { ...obj(stored?.limits) };
  for (const k of LIMIT_FIELDS) {
    const value = num(f[k]);
    if (value === undefined) delete limits[k];
    else limits[k] = value;
  }
  return { ...(stored ?? {}), name: f.name.trim() || undefined, instructions: f.instructions, model, metadata, limits };
}

/** Zod problems ("model.base_url: ...; limits.turn_timeout: ...") by form field. */
export function agentProblems(message: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const p of message.split("; ")) {
    const path = /^([a-z_.]+):/.exec(p)?.[1] ?? "";
    const field = path.split(".").at(-1) ?? "";
    const key = [
      "name",
      "instructions",
      "provider",
      "model",
      "base_url",
      "api_key_secret",
      "store_id",
      ...LIMIT_FIELDS,
    ].includes(field)
      ? field
      : /^agent id/.test(p)
        ? "id"
        : "general";
    map.set(key, [...(map.get(key) ?? []), p]);
  }
  return map;
}

/**
 * The `{{...}}` template language of data tools:
 *
 *   {{param}}       a declared top-level parameter (turn time, from the model)
 *   {{ctx.key}}     server-side turn context (chat_id, store_id, agent_id, tenant)
 *   {{secret.name}} a provisioned secret (only inside a secret header)
 *   {{env.NAME}}    an environment variable (substituted at manifest ingestion)
 *
 * Whitespace just inside the braces is allowed (`{{ param }}`). Everything
 * that opens with `{{` but is not one of these shapes is reported as
 * malformed rather than passed through, so a typo such as `{{ctx.chat-id}}`
 * or an unclosed `{{secret.x}` is caught at ingestion instead of reaching a
 * backend verbatim.
 */

/** `unknown` is a well-formed `{{ns.name}}` whose namespace is not one of ctx/secret/env. */
export type PlaceholderKind = "param" | "ctx" | "secret" | "env" | "unknown";

/** One well-formed placeholder occurrence. */
export interface Placeholder {
  /** The exact source text, braces included (`{{ ctx.chat_id }}`). */
  raw: string;
  kind: PlaceholderKind;
  /** The namespace as written (`ctx`, `secret`, `env`, or an unknown one); null for a param. */
  namespace: string | null;
  /** The parameter name, or the key after the namespace. */
  name: string;
}

/** A piece of a template: literal text, a placeholder, or a malformed `{{...` run. */
export type TemplatePart =
  | { type: "text"; text: string }
  | { type: "placeholder"; placeholder: Placeholder }
  | { type: "malformed"; raw: string };

const IDENT = "[A-Za-z_][A-Za-z0-9_]*";
const INNER = new RegExp(`^\\s*(?:(${IDENT})\\.)?(${IDENT})\\s*$`);
const KNOWN_NAMESPACES: Record<string, PlaceholderKind> = { ctx: "ctx", secret: "secret", env: "env" };

/**
 * Splits `text` into literal text, placeholders and malformed runs, in order.
 * Joining every part's source text (`text`, `placeholder.raw`, `raw`) gives
 * back `text` exactly. A request builder substitutes placeholder parts and
 * copies text parts, so a substituted value is never scanned again.
 * Never throws; a non-string yields no parts.
 */
export function splitTemplate(text: string): TemplatePart[] {
  if (typeof text !== "string") return [];
  const parts: TemplatePart[] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{{", i);
    if (open === -1) {
      literal += text.slice(i);
      break;
    }
    literal += text.slice(i, open);
    const close = text.indexOf("}}", open + 2);
    if (literal !== "") {
      parts.push({ type: "text", text: literal });
      literal = "";
    }
    if (close === -1) {
      // An unclosed `{{` swallows the rest: there is no later point at which
      // we could say where the author meant it to end.
      parts.push({ type: "malformed", raw: text.slice(open) });
      return parts;
    }
    const raw = text.slice(open, close + 2);
    const m = INNER.exec(text.slice(open + 2, close));
    if (!m || !m[2]) {
      parts.push({ type: "malformed", raw });
    } else {
      const namespace = m[1] ?? null;
      const kind: PlaceholderKind =
        namespace === null
          ? "param"
          : Object.prototype.hasOwnProperty.call(KNOWN_NAMESPACES, namespace)
            ? (KNOWN_NAMESPACES[namespace] as PlaceholderKind)
            : "unknown";
      parts.push({ type: "placeholder", placeholder: { raw, kind, namespace, name: m[2] } });
    }
    i = close + 2;
  }
  if (literal !== "") parts.push({ type: "text", text: literal });
  return parts;
}

/** The well-formed placeholders of `text`, in order of appearance (duplicates kept). */
export function listPlaceholders(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  for (const part of splitTemplate(text)) {
    if (part.type === "placeholder") out.push(part.placeholder);
  }
  return out;
}

/** The malformed `{{...` runs of `text`, as written. */
export function listMalformedPlaceholders(text: string): string[] {
  const out: string[] = [];
  for (const part of splitTemplate(text)) {
    if (part.type === "malformed") out.push(part.raw);
  }
  return out;
}

/** True when `text` contains anything that opens with `{{` (well-formed or not). */
export function hasPlaceholderSyntax(text: string): boolean {
  return typeof text === "string" && text.includes("{{");
}

/**
 * The flat parameter sugar: one line per top-level parameter,
 *
 *   name | type | required|optional | description
 *
 * where type is string, number, integer, boolean or array:<scalar>. It is a
 * shorthand for the JSON Schema the provider receives, never a second model:
 * parsing yields JSON Schema, and `toFlatSugar` only answers when the result
 * parses back to an equal schema (so the Studio can show the short form
 * without ever losing a keyword).
 */
import type { JsonSchema } from "./types";

/** The schema a flat text stands for, or the first problem (naming its line). */
export type ParseFlatSugarResult = { ok: true; schema: JsonSchema } | { ok: false; error: string };

const SCALARS = ["string", "number", "integer", "boolean"] as const;
type Scalar = (typeof SCALARS)[number];

/** Parameter names in the flat form: what a `{{param}}` placeholder can name. */
const FLAT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** More lines than any hand-written parameter list; bounds hostile input. */
const MAX_LINES = 1000;

const FORMAT_HINT = "expected 'name | type | required|optional | description'";

function isScalar(t: string): t is Scalar {
  return (SCALARS as readonly string[]).includes(t);
}

/**
 * Parses flat sugar into `{type:"object", properties, required?}`.
 * Blank lines and whitespace around cells are ignored; the description is
 * everything after the third `|` (so it may itself contain `|`) and is
 * omitted when blank; `required` is omitted when no line is required.
 * Errors name the 1-based line. Never throws.
 */
export function parseFlatSugar(text: string): ParseFlatSugarResult {
  if (typeof text !== "string") return { ok: false, error: "parameters must be text" };
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > MAX_LINES) {
    return { ok: false, error: `too many lines (at most ${MAX_LINES})` };
  }
  const entries: Array<[string, Record<string, unknown>]> = [];
  const seen = new Set<string>();
  const required: string[] = [];

  for (let n = 0; n < lines.length; n += 1) {
    const line = (lines[n] as string).trim();
    if (line === "") continue;
    const at = `line ${n + 1}`;
    const cells = splitCells(line);
    if (cells === null) return { ok: false, error: `${at}: ${FORMAT_HINT}` };
    const [name, typeText, presence, description] = cells;

    if (!FLAT_NAME.test(name)) {
      return {
        ok: false,
        error: `${at}: parameter name '${name}' must start with a letter or '_' and contain only letters, digits and '_'`,
      };
    }
    if (name === "__proto__") return { ok: false, error: `${at}: '__proto__' is not a usable parameter name` };
    if (seen.has(name)) return { ok: false, error: `${at}: duplicate parameter '${name}'` };
    seen.add(name);

    const type = parseType(typeText);
    if (!type.ok) return { ok: false, error: `${at}: ${type.error}` };

    const p = presence.toLowerCase();
    if (p !== "required" && p !== "optional") {
      return { ok: false, error: `${at}: third column must be 'required' or 'optional', got '${presence}'` };
    }
    if (p === "required") required.push(name);

    const prop: Record<string, unknown> = { ...type.schema };
    if (description !== "") prop.description = description;
    entries.push([name, prop]);
  }

  // fromEntries defines own properties, so a name such as `constructor`
  // cannot touch a prototype (`__proto__` is refused above for readers that
  // copy with plain assignment).
  const schema: JsonSchema = { type: "object", properties: Object.fromEntries(entries) };
  if (required.length > 0) schema.required = required;
  return { ok: true, schema };
}

// Returns [name, type, presence, description] or null when there are fewer
// than three separators' worth of cells.
function splitCells(line: string): [string, string, string, string] | null {
  const first = line.indexOf("|");
  const second = first === -1 ? -1 : line.indexOf("|", first + 1);
  if (second === -1) return null;
  const third = line.indexOf("|", second + 1);
  const presenceEnd = third === -1 ? line.length : third;
  return [
    line.slice(0, first).trim(),
    line.slice(first + 1, second).trim(),
    line.slice(second + 1, presenceEnd).trim(),
    third === -1 ? "" : line.slice(third + 1).trim(),
  ];
}

type TypeResult = { ok: true; schema: Record<string, unknown> } | { ok: false; error: string };

function parseType(text: string): TypeResult {
  const t = text.toLowerCase().replace(/\s+/g, "");
  if (isScalar(t)) return { ok: true, schema: { type: t } };
  if (t === "array") {
    return {
      ok: false,
      error: "'array' needs an item type: write array:string (or another scalar), or write a JSON Schema",
    };
  }
  if (t.startsWith("array:")) {
    const item = t.slice("array:".length);
    if (isScalar(item)) return { ok: true, schema: { type: "array", items: { type: item } } };
    if (item === "object") {
      return {
        ok: false,
        error: "a list of objects cannot be written in the flat form: write the JSON Schema instead",
      };
    }
    if (item === "array" || item.startsWith("array:")) {
      return { ok: false, error: "a list of lists cannot be written in the flat form: write the JSON Schema instead" };
    }
    return { ok: false, error: `unknown item type '${item}' (use string, number, integer or boolean)` };
  }
  if (t === "object") {
    return {
      ok: false,
      error: "an object parameter cannot be written in the flat form: write the JSON Schema instead",
    };
  }
  return {
    ok: false,
    error: `unknown type '${text}' (use string, number, integer, boolean or array:<scalar>)`,
  };
}

/**
 * Writes `schema` in flat form, or returns null when the flat form cannot
 * express it exactly. Non-null only if `parseFlatSugar(result)` yields a
 * schema deep-equal to `schema` (keyword for keyword, `required` in line
 * order). Never throws.
 */
export function toFlatSugar(schema: unknown): string | null {
  if (!isPlainObject(schema)) return null;
  if (!hasOnlyKeys(schema, ["type", "properties", "required"])) return null;
  if (schema.type !== "object" || !isPlainObject(schema.properties)) return null;
  const names = Object.keys(schema.properties);

  let requiredList: string[] = [];
  if (Object.prototype.hasOwnProperty.call(schema, "required")) {
    const r = schema.required;
    // `required: []` would parse back without the key, so it is not expressible.
    if (!Array.isArray(r) || r.length === 0) return null;
    requiredList = r as string[];
    // Parsing emits `required` in line order: any other order cannot round-trip.
    const expected = names.filter((n) => requiredList.includes(n));
    if (expected.length !== r.length || expected.some((n, i) => r[i] !== n)) return null;
  }

  const lines: string[] = [];
  for (const name of names) {
    if (!FLAT_NAME.test(name) || name === "__proto__") return null;
    const type = flatType(schema.properties[name]);
    if (type === null) return null;
    const prop = schema.properties[name] as Record<string, unknown>;
    let line = `${name} | ${type} | ${requiredList.includes(name) ? "required" : "optional"}`;
    if (Object.prototype.hasOwnProperty.call(prop, "description")) {
      const d = prop.description;
      // Parsing trims and reads one line, and drops a blank description.
      if (typeof d !== "string" || d === "" || d !== d.trim() || /[\r\n]/.test(d)) return null;
      line += ` | ${d}`;
    }
    lines.push(line);
  }
  return lines.join("\n");
}

function flatType(prop: unknown): string | null {
  if (!isPlainObject(prop)) return null;
  if (prop.type === "array") {
    if (!hasOnlyKeys(prop, ["type", "items", "description"])) return null;
    const items = prop.items;
    if (!isPlainObject(items) || !hasOnlyKeys(items, ["type"])) return null;
    return typeof items.type === "string" && isScalar(items.type) ? `array:${items.type}` : null;
  }
  if (!hasOnlyKeys(prop, ["type", "description"])) return null;
  return typeof prop.type === "string" && isScalar(prop.type) ? prop.type : null;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function hasOnlyKeys(obj: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(obj).every((k) => allowed.includes(k));
}

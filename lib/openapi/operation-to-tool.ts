/**
 * One operation -> the input of a data tool: its path, query and header
 * parameters and its JSON request body become one parameters schema (each
 * argument a top-level property), and the request names each argument with a
 * `{{param}}` placeholder where it belongs: a path segment, a query value, a
 * header, a key of the JSON body. The result still goes through
 * validateToolDefinition, the gate of every write path.
 */
import { HTTP_METHODS, type HttpMethod } from "@/lib/tools";
import type { Operation, OperationParameter, SecurityScheme } from "./list-operations";
import { securityHeaders, type RequiredSecret } from "./security-headers";
import { define, isObject, toSafeSchema } from "./to-safe-schema";
import { trimUnderscores } from "./trim-underscores";

export interface OperationContext {
  /** The import's name; the group is `openapi:<name>`. */
  importName: string;
  group: string;
  /** Absolute http(s) base URL the operation's path is appended to. */
  baseUrl: string;
  schemes: Readonly<Record<string, SecurityScheme>>;
  auth?: Readonly<Record<string, string>>;
}

export type OperationToToolResult =
  { ok: true; input: Record<string, unknown>; secrets: RequiredSecret[] } | { ok: false; problems: string[] };

/** A tool's description is what every turn sends; a long one is cut here. */
export const MAX_IMPORTED_DESCRIPTION_CHARS = 2000;
/** Headers the HTTP client or the body builder owns: a parameter cannot set them. */
const OWNED_HEADERS = new Set(["accept", "content-type", "content-length", "host", "connection", "transfer-encoding"]);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Builds the definition input of `op` named `name`. Never throws. */
export function operationToTool(op: Operation, name: string, ctx: OperationContext): OperationToToolResult {
  const problems = [...op.problems];
  const method = op.method.toUpperCase();
  if (!(HTTP_METHODS as readonly string[]).includes(method)) {
    return {
      ok: false,
      problems: [`method ${method} is not supported (a data tool sends ${HTTP_METHODS.join(", ")})`],
    };
  }
  const security = securityHeaders(op.security, ctx.schemes, { importName: ctx.importName, auth: ctx.auth });
  if (!security.ok) problems.push(security.problem);

  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const taken = new Set<string>();
  const argFor = new Map<string, string>();
  const query: Record<string, string> = {};
  const headers: Record<string, string> = security.ok ? { ...security.headers } : {};

  for (const p of op.parameters) {
    const problem = checkParameter(p);
    if (problem === "skip") continue;
    if (problem !== null) {
      problems.push(problem);
      continue;
    }
    if (p.in === "header" && Object.keys(headers).some((h) => h.toLowerCase() === p.name.toLowerCase())) continue;
    const arg = argumentName(p.name, taken);
    const converted = toSafeSchema(p.schema, `parameters.properties.${arg}`);
    if (!converted.ok) {
      problems.push(...converted.problems.map((x) => `${p.in} parameter '${p.name}': ${x}`));
      continue;
    }
    const schema = converted.schema;
    const shape = checkShape(p, schema.type);
    if (shape !== null) {
      problems.push(shape);
      continue;
    }
    if (p.description && typeof schema.description !== "string") schema.description = p.description;
    define(properties, arg, schema);
    if (p.required) required.push(arg);
    argFor.set(`${p.in}:${p.name}`, arg);
    if (p.in === "query") define(query, p.name, `{{${arg}}}`);
    if (p.in === "header") define(headers, p.name, `{{${arg}}}`);
  }

  const body = buildBody(op, taken, properties, required, problems);
  const url = buildUrl(ctx.baseUrl, op.path, argFor, problems);
  if (problems.length > 0) return { ok: false, problems };

  const parameters: Record<string, unknown> = { type: "object", properties };
  if (required.length > 0) parameters.required = required;
  const request: Record<string, unknown> = { method: method as HttpMethod, url, headers, query };
  if (body !== undefined) request.body = body;
  return {
    ok: true,
    input: {
      name,
      description: describe(op),
      parameters,
      request,
      response: { extract: "body_raw" },
      secret_headers: security.ok ? security.secretHeaders : [],
      group: ctx.group,
    },
    secrets: security.ok ? security.secrets : [],
  };
}

function checkParameter(p: OperationParameter): string | null | "skip" {
  if (p.in === "cookie") {
    return p.required ? `cookie parameter '${p.name}' is required, and a data tool sends no cookies` : "skip";
  }
  if (p.in === "header" && OWNED_HEADERS.has(p.name.toLowerCase())) return "skip";
  if (p.in === "path" && p.style !== undefined && p.style !== "simple")
    return `path parameter '${p.name}' uses style '${p.style}', which the request builder does not produce`;
  return null;
}

// What a query, path or header value can carry as the request builder writes it.
function checkShape(p: OperationParameter, type: unknown): string | null {
  if (type === "object")
    return `${p.in} parameter '${p.name}' is an object (style ${p.style ?? "form"}), which a ${p.in} value cannot carry`;
  if (type !== "array") return null;
  if (p.in !== "query") return `${p.in} parameter '${p.name}' is a list, which a ${p.in} value cannot carry`;
  const style = p.style ?? "form";
  const explode = p.explode ?? style === "form";
  if (style !== "form" || !explode)
    return `query parameter '${p.name}' is a list sent as ${style === "form" ? "one comma-separated value" : style} (explode: false), which the request builder does not produce (it repeats the parameter)`;
  return null;
}

/** The parameter's name when it is a valid placeholder name and free, else a sanitized one. */
function argumentName(name: string, taken: Set<string>): string {
  let base = IDENT.test(name) ? name : trimUnderscores(name.replace(/[^A-Za-z0-9_]+/g, "_"));
  if (!IDENT.test(base)) base = `p_${base}`;
  if (base === "__proto__") base = "p_proto";
  let arg = base;
  for (let n = 2; taken.has(arg); n += 1) arg = `${base}_${n}`;
  taken.add(arg);
  return arg;
}

function buildBody(
  op: Operation,
  taken: Set<string>,
  properties: Record<string, unknown>,
  required: string[],
  problems: string[],
): unknown {
  const body = op.body;
  if (body === undefined) return undefined;
  if (body.jsonSchema === undefined) {
    if (!body.required) return undefined;
    return void problems.push(
      `request body is ${body.contentTypes.join(", ") || "of no media type"}: only JSON request bodies are built`,
    );
  }
  const converted = toSafeSchema(body.jsonSchema, "parameters.properties.body");
  if (!converted.ok) return void problems.push(...converted.problems.map((x) => `request body: ${x}`));
  const schema = converted.schema;
  const props = isObject(schema.properties) ? schema.properties : {};
  if (schema.type !== "object" || Object.keys(props).length === 0) {
    // A list, a scalar or a free-form map: one argument carries the whole body.
    const arg = argumentName("body", taken);
    if (body.description && typeof schema.description !== "string") schema.description = body.description;
    define(properties, arg, schema);
    if (body.required) required.push(arg);
    return `{{${arg}}}`;
  }
  const template: Record<string, string> = {};
  const requiredProps = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const [key, child] of Object.entries(props)) {
    // A body key that is already a parameter's name is sent as `body_<key>`.
    const arg = argumentName(taken.has(key) ? `body_${key}` : key, taken);
    define(properties, arg, child);
    define(template, key, `{{${arg}}}`);
    if (body.required && requiredProps.has(key)) required.push(arg);
  }
  return template;
}

function buildUrl(baseUrl: string, path: string, argFor: Map<string, string>, problems: string[]): string {
  const rendered = path.replace(/\{([^{}]*)\}/g, (whole, name: string) => {
    const arg = argFor.get(`path:${name}`);
    if (arg === undefined) {
      problems.push(`path segment '${whole}' has no path parameter`);
      return whole;
    }
    return `{{${arg}}}`;
  });
  return `${baseUrl.replace(/\/+$/, "")}${rendered.startsWith("/") ? "" : "/"}${rendered}`;
}

function describe(op: Operation): string {
  const summary = op.summary?.trim() ?? "";
  const description = op.description?.trim() ?? "";
  let text = summary;
  if (description !== "" && description !== summary) text = text === "" ? description : `${summary}\n\n${description}`;
  if (text === "") text = `Calls ${op.method.toUpperCase()} ${op.path}.`;
  return text.length > MAX_IMPORTED_DESCRIPTION_CHARS ? `${text.slice(0, MAX_IMPORTED_DESCRIPTION_CHARS - 1)}…` : text;
}

/**
 * A dereferenced OpenAPI 3.x document -> its operations in one plain shape
 * (method, path, parameters, JSON request body, security, base URL), the
 * shape every later step reads. Swagger 2.0 documents are first brought to
 * this shape by fromSwagger2. Path-level parameters are inherited and
 * overridden by (name, in), as the specification says.
 */
import { isObject } from "./to-safe-schema";

/** One parameter as the import reads it (`schema` is the dereferenced schema, not yet converted). */
export interface OperationParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  description?: string;
  schema: unknown;
  /** Set for styles the request builder cannot produce (deepObject, pipeDelimited, ...). */
  style?: string;
  explode?: boolean;
}

/** What the request body is; only a JSON one becomes parameters. */
export interface OperationBody {
  required: boolean;
  /** The JSON media type's schema, when the body has one. */
  jsonSchema?: unknown;
  /** Every media type the body may be sent as. */
  contentTypes: string[];
  description?: string;
}

/** One security scheme (components.securitySchemes / securityDefinitions), as declared. */
export interface SecurityScheme {
  type: string;
  /** apiKey: where and under which name. */
  in?: string;
  name?: string;
  /** http: `bearer`, `basic`, ... */
  scheme?: string;
}

export interface Operation {
  /** Lower case, as the document spells it. */
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  description?: string;
  parameters: OperationParameter[];
  body?: OperationBody;
  /** Alternatives (OR), each a set of scheme names (AND); `[]` = no auth; `[{}]` also = none needed. */
  security: Record<string, unknown>[];
  /** The operation's base URL as the document gives it (may be relative); null when none. */
  server: string | null;
  /** Problems found while reading it (an unreadable parameter...). */
  problems: string[];
}

export interface DocumentOperations {
  version: string;
  title: string;
  operations: Operation[];
  securitySchemes: Record<string, SecurityScheme>;
}

export const OPERATION_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Reads every operation of an OpenAPI 3.0/3.1 document (dereferenced). Never throws on a bad shape. */
export function listOperations(doc: Record<string, unknown>): DocumentOperations {
  const docServer = firstServer(doc.servers);
  const docSecurity = Array.isArray(doc.security) ? doc.security.filter(isObject) : [];
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = readSchemes(components.securitySchemes);
  const operations: Operation[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const pathParams = Array.isArray(item.parameters) ? item.parameters : [];
    const pathServer = firstServer(item.servers) ?? docServer;
    for (const method of OPERATION_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const problems: string[] = [];
      const parameters = mergeParameters(pathParams, Array.isArray(op.parameters) ? op.parameters : [], problems);
      operations.push({
        method,
        path,
        operationId: typeof op.operationId === "string" ? op.operationId : undefined,
        summary: typeof op.summary === "string" ? op.summary : undefined,
        description: typeof op.description === "string" ? op.description : undefined,
        parameters,
        body: readBody(op.requestBody),
        security: Array.isArray(op.security) ? op.security.filter(isObject) : docSecurity,
        server: firstServer(op.servers) ?? pathServer,
        problems,
      });
    }
  }
  const info = isObject(doc.info) ? doc.info : {};
  return {
    version: typeof doc.openapi === "string" ? doc.openapi : "unknown",
    title: typeof info.title === "string" ? info.title : "",
    operations,
    securitySchemes: schemes,
  };
}

function mergeParameters(pathLevel: unknown[], opLevel: unknown[], problems: string[]): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  for (const raw of [...pathLevel, ...opLevel]) {
    const p = readParameter(raw, problems);
    if (p) byKey.set(`${p.in}:${p.name}`, p);
  }
  return [...byKey.values()];
}

function readParameter(raw: unknown, problems: string[]): OperationParameter | null {
  if (!isObject(raw)) return null;
  if (typeof raw.$ref === "string") {
    problems.push(`a parameter is a '$ref' ${JSON.stringify(raw.$ref.slice(0, 200))} that could not be inlined`);
    return null;
  }
  const where = raw.in;
  if (typeof raw.name !== "string" || raw.name === "") return null;
  if (where !== "path" && where !== "query" && where !== "header" && where !== "cookie") {
    problems.push(`parameter '${raw.name}' is in '${String(where)}', which is not path, query, header or cookie`);
    return null;
  }
  let schema = raw.schema;
  if (schema === undefined && isObject(raw.content)) {
    const json = Object.entries(raw.content).find(([type]) => isJsonType(type));
    schema = json && isObject(json[1]) ? json[1].schema : undefined;
  }
  return {
    name: raw.name,
    in: where,
    required: where === "path" || raw.required === true,
    description: typeof raw.description === "string" ? raw.description : undefined,
    schema: schema ?? { type: "string" },
    style: typeof raw.style === "string" ? raw.style : undefined,
    explode: typeof raw.explode === "boolean" ? raw.explode : undefined,
  };
}

function readBody(raw: unknown): OperationBody | undefined {
  if (!isObject(raw)) return undefined;
  const content = isObject(raw.content) ? raw.content : {};
  const contentTypes = Object.keys(content);
  const json = contentTypes.find(isJsonType);
  const media = json ? content[json] : undefined;
  return {
    required: raw.required === true,
    jsonSchema: isObject(media) ? (media.schema ?? { type: "object", additionalProperties: true }) : undefined,
    contentTypes,
    description: typeof raw.description === "string" ? raw.description : undefined,
  };
}

function readSchemes(raw: unknown): Record<string, SecurityScheme> {
  const out: Record<string, SecurityScheme> = {};
  if (!isObject(raw)) return out;
  for (const [name, s] of Object.entries(raw)) {
    if (!isObject(s) || typeof s.type !== "string") continue;
    Object.defineProperty(out, name, {
      value: {
        type: s.type,
        in: typeof s.in === "string" ? s.in : undefined,
        name: typeof s.name === "string" ? s.name : undefined,
        scheme: typeof s.scheme === "string" ? s.scheme.toLowerCase() : undefined,
      },
      enumerable: true,
    });
  }
  return out;
}

/** The first server's URL with its variables set to their defaults; null when there is none. */
function firstServer(servers: unknown): string | null {
  if (!Array.isArray(servers) || !isObject(servers[0]) || typeof servers[0].url !== "string") return null;
  const server = servers[0];
  const vars = isObject(server.variables) ? server.variables : {};
  return setVariables(server.url as string, (name) => {
    const v = vars[name];
    return isObject(v) && typeof v.default === "string" ? v.default : null;
  });
}

/**
 * Each `{name}` of `url` (a `{` up to the first `}` after it, at least one character between)
 * replaced by `valueOf(name)`, or left when that is null: what `/\{([^}]+)\}/g` matches, in one
 * pass (the regex retries from every unclosed `{`, quadratic on a URL of braces).
 */
function setVariables(url: string, valueOf: (name: string) => string | null): string {
  let out = "";
  let from = 0;
  for (let open = url.indexOf("{"); open !== -1; open = url.indexOf("{", open + 1)) {
    const close = url.indexOf("}", open + 1);
    if (close === -1) break; // no `}` after this `{`, so none after any later one either
    if (close === open + 1) continue; // `{}` names nothing
    const value = valueOf(url.slice(open + 1, close));
    if (value !== null) out += url.slice(from, open) + value;
    else out += url.slice(from, close + 1);
    from = close + 1;
    open = close;
  }
  return out + url.slice(from);
}

/** `application/json`, `application/vnd.x+json`, `application/json; charset=utf-8`. */
export function isJsonType(type: string): boolean {
  const base = type.split(";")[0]?.trim().toLowerCase() ?? "";
  return base === "application/json" || /^application\/[a-z0-9.+-]*\+json$/.test(base) || base === "*/*";
}

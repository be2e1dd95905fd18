/**
 * Swagger 2.0 -> the OpenAPI 3.0 shape listOperations reads: `host` +
 * `basePath` + `schemes` become a server, a `body` parameter the JSON request
 * body, `formData` parameters a form body (which the import then reports, as
 * it only builds JSON bodies), the other parameters keep their type keywords
 * under `schema`, `securityDefinitions` become `securitySchemes`. Only what
 * an import reads is converted; the rest of the document is left behind.
 */
import { isObject } from "./to-safe-schema";
import { OPERATION_METHODS } from "./list-operations";

const SCHEMA_KEYS = [
  "type",
  "format",
  "items",
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
];

/** Converts a dereferenced Swagger 2.0 document. The input is not modified. */
export function fromSwagger2(doc: Record<string, unknown>): Record<string, unknown> {
  const consumes = Array.isArray(doc.consumes) ? doc.consumes.filter((c) => typeof c === "string") : [];
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    const out: Record<string, unknown> = {};
    if (Array.isArray(item.parameters)) out.parameters = item.parameters.filter(isPlainParameter).map(toParameter);
    for (const method of OPERATION_METHODS) {
      const op = item[method];
      if (isObject(op)) out[method] = toOperation(op, item, consumes);
    }
    Object.defineProperty(paths, path, { value: out, enumerable: true });
  }
  const converted: Record<string, unknown> = {
    openapi: `3.0.0 (converted from Swagger ${String(doc.swagger)})`,
    info: doc.info,
    paths,
    components: { securitySchemes: toSchemes(doc.securityDefinitions) },
  };
  const server = toServer(doc);
  if (server !== null) converted.servers = [{ url: server }];
  if (Array.isArray(doc.security)) converted.security = doc.security;
  return converted;
}

function toOperation(
  op: Record<string, unknown>,
  item: Record<string, unknown>,
  docConsumes: string[],
): Record<string, unknown> {
  const all = [
    ...(Array.isArray(item.parameters) ? item.parameters : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ];
  const own = Array.isArray(op.parameters) ? op.parameters : [];
  const consumes = Array.isArray(op.consumes) ? op.consumes.filter((c) => typeof c === "string") : docConsumes;
  const out: Record<string, unknown> = { ...op, parameters: own.filter(isPlainParameter).map(toParameter) };
  delete out.consumes;
  delete out.produces;
  const body = all.find((p) => isObject(p) && p.in === "body") as Record<string, unknown> | undefined;
  const form = all.filter((p) => isObject(p) && p.in === "formData");
  if (body) {
    const type = consumes.find((c) => /json/i.test(c)) ?? "application/json";
    out.requestBody = {
      required: body.required === true,
      description: body.description,
      content: { [type]: { schema: body.schema } },
    };
  } else if (form.length > 0) {
    const type = consumes.find((c) => /form/i.test(c)) ?? "application/x-www-form-urlencoded";
    out.requestBody = {
      required: form.some((p) => isObject(p) && p.required === true),
      content: { [type]: {} },
    };
  }
  return out;
}

function isPlainParameter(p: unknown): boolean {
  return isObject(p) && p.in !== "body" && p.in !== "formData";
}

function toParameter(p: unknown): Record<string, unknown> {
  const param = p as Record<string, unknown>;
  const schema: Record<string, unknown> = {};
  for (const key of SCHEMA_KEYS) if (param[key] !== undefined) schema[key] = param[key];
  const out: Record<string, unknown> = {
    name: param.name,
    in: param.in,
    required: param.required === true,
    description: param.description,
    schema,
  };
  // Swagger 2.0 arrays are comma-separated unless `multi` (one parameter per value).
  if (param.type === "array") {
    out.style =
      param.collectionFormat === "multi" ? "form" : `collectionFormat ${String(param.collectionFormat ?? "csv")}`;
    out.explode = param.collectionFormat === "multi";
  }
  return out;
}

function toSchemes(raw: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isObject(raw)) return out;
  for (const [name, def] of Object.entries(raw)) {
    if (!isObject(def)) continue;
    const scheme =
      def.type === "basic"
        ? { type: "http", scheme: "basic" }
        : def.type === "apiKey"
          ? { type: "apiKey", in: def.in, name: def.name }
          : { type: String(def.type) };
    Object.defineProperty(out, name, { value: scheme, enumerable: true });
  }
  return out;
}

/** `schemes[0]://host basePath`, https preferred; a relative basePath when there is no host. */
function toServer(doc: Record<string, unknown>): string | null {
  const basePath = typeof doc.basePath === "string" ? doc.basePath : "";
  if (typeof doc.host !== "string" || doc.host === "") return basePath === "" ? null : basePath;
  const schemes = Array.isArray(doc.schemes) ? doc.schemes : [];
  const scheme = schemes.includes("https") ? "https" : typeof schemes[0] === "string" ? schemes[0] : "https";
  return `${scheme}://${doc.host}${basePath}`;
}

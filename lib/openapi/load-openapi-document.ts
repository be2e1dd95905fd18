/**
 * A parsed OpenAPI 3.0/3.1 or Swagger 2.0 document -> its operations, with
 * every internal `$ref` inlined by @apidevtools/swagger-parser. The parser
 * never fetches anything: external references (files, URLs) are not
 * resolved, so a document cannot make the server read a local file or reach
 * an address the egress guard would refuse; such a `$ref` stays in place and
 * the operation using it becomes an `errors[]` entry. Circular references
 * are left as `$ref` too (never expanded into a cycle).
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { errorMessage } from "@/lib/errors";
import { fromSwagger2 } from "./from-swagger2";
import { listOperations, type DocumentOperations } from "./list-operations";
import { isObject } from "./to-safe-schema";

export type LoadOpenApiDocumentResult = ({ ok: true } & DocumentOperations) | { ok: false; reason: string };

/** The parser's options: internal references only, circular ones kept as `$ref`. */
export const PARSER_OPTIONS = {
  resolve: { external: false, file: false, http: false },
  dereference: { circular: "ignore" },
} as const;

/**
 * Dereferences `value` (which it may modify: pass a value nobody else holds)
 * and lists its operations. The reason of a failure is the parser's own.
 */
export async function loadOpenApiDocument(value: unknown): Promise<LoadOpenApiDocumentResult> {
  if (!isObject(value))
    return { ok: false, reason: "the document is not an object (an OpenAPI document is a JSON/YAML mapping)" };
  if (typeof value.openapi !== "string" && typeof value.swagger !== "string") {
    return { ok: false, reason: "the document has neither an 'openapi' nor a 'swagger' version field" };
  }
  if (typeof value.openapi === "string" && !/^3\.[01]\./.test(value.openapi)) {
    return {
      ok: false,
      reason: `OpenAPI version ${value.openapi.slice(0, 20)} is not supported (3.0, 3.1 and Swagger 2.0 are)`,
    };
  }
  if (typeof value.swagger === "string" && value.swagger !== "2.0") {
    return { ok: false, reason: `Swagger version ${value.swagger.slice(0, 20)} is not supported (only 2.0)` };
  }
  let doc: unknown;
  try {
    // The parser's types want a full OpenAPI.Document; the checks above are what it needs. (The
    // casts leave the lint seeing the callback overload; without a callback it returns a promise.)
    // eslint-disable-next-line @typescript-eslint/await-thenable
    doc = await SwaggerParser.dereference(value as never, PARSER_OPTIONS as never);
  } catch (e) {
    return { ok: false, reason: (errorMessage(e).split("\n")[0] ?? "").slice(0, 500) };
  }
  if (!isObject(doc)) return { ok: false, reason: "the parser returned no document" };
  const normalized = typeof doc.swagger === "string" ? fromSwagger2(doc) : doc;
  const listed = listOperations(normalized);
  return { ok: true, ...listed, version: typeof doc.swagger === "string" ? `swagger ${doc.swagger}` : listed.version };
}

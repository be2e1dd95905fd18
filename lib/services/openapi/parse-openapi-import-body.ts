/**
 * The body of POST /v1/openapi/import (and `insika openapi import`, the
 * Studio form): which document (a URL to fetch, or the document itself: the
 * parsed JSON or the YAML/JSON text), under which import name, which
 * operations, which server, which secret per security scheme.
 */
import { z } from "zod";
import { DomainError, validationFailed } from "@/lib/errors";

const IMPORT_NAME = /^[a-z0-9_-]+$/;
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const bodySchema = z.strictObject({
  name: z
    .string()
    .min(1, "name is required")
    .max(48, "name must be at most 48 characters")
    .regex(IMPORT_NAME, "name must use only a-z, 0-9, _ and -"),
  url: z.string().trim().min(1, "url must not be empty").optional(),
  document: z.union([z.string().min(1, "document must not be empty"), z.record(z.string(), z.unknown())]).optional(),
  operations: z
    .array(z.string().min(1).max(1000))
    .min(1, "operations, when given, lists at least one")
    .max(5000)
    .optional(),
  server: z.string().trim().min(1, "server must not be empty").optional(),
  auth: z
    .record(z.string().min(1).max(200), z.string().regex(SECRET_NAME, "a secret name (letters, digits, _)"))
    .optional(),
});

/** A checked import request. */
export type OpenApiImportRequest = z.infer<typeof bodySchema>;

/**
 * Checks `body` (422 naming the problem): exactly one of `url` and
 * `document`; `url` and `server` absolute http/https URLs without
 * placeholders; unknown fields refused.
 */
export function parseOpenApiImportBody(body: unknown): OpenApiImportRequest {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
    throw new DomainError("validation_failed", problems.join("; "), { issues: parsed.error.issues.slice(0, 5) });
  }
  const req = parsed.data;
  if ((req.url === undefined) === (req.document === undefined)) {
    throw validationFailed("give exactly one of url (where to fetch the document) and document (the document itself)");
  }
  if (req.url !== undefined) checkUrl("url", req.url);
  if (req.server !== undefined) checkUrl("server", req.server);
  return req;
}

function checkUrl(field: string, value: string): void {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw validationFailed(`${field} must be an absolute http/https URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw validationFailed(`${field} must be http/https`);
  if (value.includes("{{"))
    throw validationFailed(`${field} must be a literal URL (placeholders are not resolved here)`);
}

/**
 * `insika openapi import NAME URL|FILE [--server URL] [--operation ID]... [--auth SCHEME=SECRET]...`
 * -> the body of POST /v1/openapi/import. An http(s) URL is fetched by the
 * import (through the egress guard); anything else is a file read here and
 * sent as the document's text (JSON or YAML).
 */
import fs from "node:fs";

export const OPENAPI_IMPORT_USAGE =
  "usage: insika openapi import NAME URL|FILE [--server URL] [--operation ID]... [--auth SCHEME=SECRET]...";

/** Builds the import body; throws with the usage line on a malformed command. */
export function openApiImportBody(args: readonly string[], readFile = (p: string) => fs.readFileSync(p, "utf8")) {
  const [sub, name, source, ...rest] = args;
  if (sub !== "import" || !name || !source) throw new Error(OPENAPI_IMPORT_USAGE);
  const body: Record<string, unknown> = { name };
  if (/^https?:\/\//i.test(source)) body.url = source;
  else body.document = readFile(source);
  const operations: string[] = [];
  const auth: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i];
    const value = rest[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value\n${OPENAPI_IMPORT_USAGE}`);
    if (flag === "--server") body.server = value;
    else if (flag === "--operation") operations.push(value);
    else if (flag === "--auth") {
      const eq = value.indexOf("=");
      if (eq <= 0) throw new Error("--auth takes SCHEME=SECRET (the value given has no scheme before an '=')");
      auth[value.slice(0, eq)] = value.slice(eq + 1);
    } else throw new Error(`unknown option '${flag}'\n${OPENAPI_IMPORT_USAGE}`);
  }
  if (operations.length > 0) body.operations = operations;
  if (Object.keys(auth).length > 0) body.auth = auth;
  return body;
}

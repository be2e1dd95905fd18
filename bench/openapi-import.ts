/**
 * openapi-import: no baseline, an absolute goal. Imports the largest public OpenAPI document we
 * have, GitHub's REST API description (@octokit/openapi, 1,223 operations, ~12.4 MiB of JSON),
 * posted as text into a fresh database: parse, dereference, convert every operation, validate,
 * write in one transaction (importOpenApi, the POST /v1/openapi/import path). Then a re-import
 * of the same document (every tool unchanged). One warm-up, then 5 runs each, fresh databases.
 * Petstore 3.0 (20 operations) is the small size.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { operatorPrincipal } from "@/lib/access/principal";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { importOpenApi } from "@/lib/services/openapi/import-openapi";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { freshDb } from "./fixtures";
import { describe, row, say, stats, type Row } from "./harness";

const require = createRequire(import.meta.url);
const OPERATOR = operatorPrincipal("api");
const DEPS = { posture: DEV_POSTURE, secrets: staticSecrets({}) };
const RUNS = 5;

const DOCUMENTS = [
  { size: "petstore (20 ops)", file: require.resolve("@readme/oas-examples/3.0/json/petstore.json"), goalMs: 100 },
  { size: "github (1,223 ops)", file: require.resolve("@octokit/openapi/generated/api.github.com.json"), goalMs: 5000 },
];

async function timeImport(text: string, reimport: boolean): Promise<{ ms: number; tools: number; errors: number }> {
  const db = freshDb();
  const body = { name: "bench", document: text };
  if (reimport) await importOpenApi(db, OPERATOR, body, DEPS);
  const t = performance.now();
  const result = await importOpenApi(db, OPERATOR, body, DEPS);
  const ms = performance.now() - t;
  return { ms, tools: result.created.length + result.updated.length, errors: result.errors.length };
}

export default async function openApiImportBench(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const doc of DOCUMENTS) {
    const text = readFileSync(doc.file, "utf8");
    for (const reimport of [false, true]) {
      await timeImport(text, reimport);
      const samples: number[] = [];
      let last = { tools: 0, errors: 0 };
      for (let i = 0; i < RUNS; i++) {
        const r = await timeImport(text, reimport);
        samples.push(r.ms);
        last = r;
      }
      const s = stats(samples);
      const metric = reimport ? "re-import (unchanged)" : "import";
      say(
        `${doc.size} ${metric}: ${describe(s)}; ${last.tools} tools, ${last.errors} errors, ${(text.length / 1048576).toFixed(1)} MiB`,
      );
      rows.push(
        row({
          name: "openapi-import",
          size: doc.size,
          metric,
          unit: "ms",
          value: Math.round(s.median),
          goal: { on: "value", op: "<=", limit: doc.goalMs },
        }),
      );
    }
  }
  return rows;
}

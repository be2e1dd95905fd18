import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { writeTools } from "@/db/queries/tools";
import { parseEnv } from "@/lib/env";
import type { DataToolDefinition } from "@/lib/tools/types";
import { runDoctor } from "./doctor";
import { getCatalog } from "@/lib/services/tools/catalog";

// A row as an older version stored it, before writes refused literal credentials.
const stored = (name: string, headers: Record<string, string>, secret_headers: string[] = []): DataToolDefinition => ({
  name,
  description: name,
  parameters: { type: "object", properties: {} },
  request: { method: "GET", url: "https://api.example.com/x", headers, query: {} },
  response: { extract: "body_raw" },
  secret_headers,
  side_effect: false,
  timeout: 30,
  group: null,
  tags: [],
});

describe("doctor: literal credentials", () => {
  it("warns about stored headers with a literal credential, which keep working", async () => {
    const db = openDb(":memory:");
    await writeTools(db, {
      source: "seed",
      writes: [
        { kind: "data", definition: stored("old_literal", { Authorization: "Bearer abc123" }) },
        { kind: "data", definition: stored("declared", { "X-Api-Key": "k" }, ["X-Api-Key"]) },
        { kind: "mcp", definition: stored("mcp_literal", { Authorization: "Bearer t0k" }, ["Authorization"]) },
        { kind: "data", definition: stored("clean", { Authorization: "Bearer {{secret.t}}" }, ["Authorization"]) },
      ],
    });
    expect((await getCatalog(db)).entries.get("old_literal")?.status).toBe("ok");
    const { checks } = await runDoctor(db, parseEnv({ INSIKA_DATA_DIR: "/tmp/insika-doctor-test" }));
    const check = checks.find((c) => c.name === "literal-credentials");
    expect(check).toMatchObject({ status: "warn", message: expect.stringContaining("{{secret.*}}") });
    expect(check?.items).toHaveLength(2);
    expect(check?.items).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^old_literal: request\.headers\.Authorization: /),
        expect.stringMatching(/^mcp_literal: request\.headers\.Authorization: /),
      ]),
    );
  });

  it("is ok when nothing is literal", async () => {
    const { checks } = await runDoctor(openDb(":memory:"), parseEnv({ INSIKA_DATA_DIR: "/tmp/insika-doctor-test" }));
    expect(checks.find((c) => c.name === "literal-credentials")?.status).toBe("ok");
  });
});

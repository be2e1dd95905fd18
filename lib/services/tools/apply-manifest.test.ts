import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { getTool } from "@/db/queries/tools";
import { DomainError } from "@/lib/errors";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { applyManifest, MAX_MANIFEST_TOOLS } from "./apply-manifest";
import { operatorPrincipal } from "@/lib/access/principal";

const OPERATOR = operatorPrincipal("api");

const tool = (name: string, url = "https://api.example.com/x") => ({
  name,
  description: `the ${name} tool`,
  request: { method: "GET", url },
});
const deps = (env: Record<string, string | undefined> = {}) => ({ env, secrets: staticSecrets({}) });

describe("applyManifest", () => {
  it("accepts exactly the documented maximum number of tools", async () => {
    const db = openDb(":memory:");
    const tools = Array.from({ length: MAX_MANIFEST_TOOLS }, (_, i) => tool(`t_${i}`));
    const r = await applyManifest(db, OPERATOR, { tools }, deps());
    expect(r.created).toHaveLength(MAX_MANIFEST_TOOLS);
    expect(r.errors).toEqual([]);
  });

  it("refuses one tool more with 413, writing nothing", async () => {
    const db = openDb(":memory:");
    const tools = Array.from({ length: MAX_MANIFEST_TOOLS + 1 }, (_, i) => tool(`t_${i}`));
    let error: unknown;
    try {
      await applyManifest(db, OPERATOR, { tools }, deps());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("payload_too_large");
    expect((error as DomainError).message).toContain(`at most ${MAX_MANIFEST_TOOLS}`);
    expect(await getTool(db, "t_0")).toBeUndefined();
  });

  it("substitutes only exposed env variables; any other is a per-tool error naming it and the setting", async () => {
    const db = openDb(":memory:");
    const r = await applyManifest(
      db,
      OPERATOR,
      {
        tools: [
          tool("exposed", "{{env.API_URL}}/x"),
          tool("hidden", "{{env.HOME}}/x"),
          tool("unset", "{{env.REGION}}/x"),
        ],
      },
      deps({ API_URL: "https://api.example.com", REGION: undefined }),
    );
    expect(r.created).toEqual(["exposed"]);
    expect((await getTool(db, "exposed"))?.definition.request.url).toBe("https://api.example.com/x");
    expect(r.errors).toEqual([
      {
        index: 1,
        tool: "hidden",
        error: expect.stringContaining(
          "{{env.HOME}}: HOME is not exposed to manifests (list it in INSIKA_MANIFEST_ENV",
        ),
      },
      { index: 2, tool: "unset", error: expect.stringContaining("environment variable REGION is not set") },
    ]);
  });
});

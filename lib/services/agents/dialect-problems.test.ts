import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { operatorPrincipal } from "@/lib/access/principal";
import { runDoctor } from "@/lib/services/server/doctor";
import { listCatalogWithDialectProblems } from "@/lib/services/tools/catalog-with-dialect-problems";
import { putTool } from "@/lib/services/tools/tools";
import { parseEnv } from "@/lib/env";
import { putAgent } from "./agents";
import { listDialectProblems } from "./dialect-problems";

const OPERATOR = operatorPrincipal("api");
const ONLY = ["search", "plain"];
const GEMINI = {
  provider: "openai-compatible",
  model: "gemini-2.5-flash",
  base_url: "https://generativelanguage.googleapis.com/v1beta/openai",
};

async function setup() {
  const db = openDb(":memory:");
  await putTool(db, OPERATOR, "search", {
    name: "search",
    description: "Search",
    parameters: {
      type: "object",
      properties: { q: { type: "string" }, filters: { type: "object", properties: {}, additionalProperties: true } },
      required: ["q"],
    },
    request: { method: "GET", url: "https://api.example.com/search", query: { q: "{{q}}" } },
  });
  await putTool(db, OPERATOR, "plain", {
    name: "plain",
    description: "Plain",
    parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    request: { method: "GET", url: "https://api.example.com/plain" },
  });
  return db;
}

describe("listDialectProblems", () => {
  it("checks each tool an agent is offered against its provider's dialect", async () => {
    const db = await setup();
    await putAgent(db, OPERATOR, "gem", { model: GEMINI, tools_allow: ONLY });
    await putAgent(db, OPERATOR, "oa", {
      model: { provider: "openai", model: "gpt", api_key_secret: "k" },
      tools_allow: ONLY,
    });
    await putAgent(db, OPERATOR, "demo", { model: { provider: "demo", model: "demo" } });
    expect(await listDialectProblems(db)).toStrictEqual([
      {
        agent: "gem",
        tool: "search",
        dialect: "gemini",
        path: "parameters.properties.filters",
        message:
          "parameters.properties.filters: Gemini does not accept additionalProperties (remove it, or set model.strict: true to have Insika compile it for the provider)",
      },
      {
        agent: "gem",
        tool: "search",
        dialect: "gemini",
        path: "parameters.properties.filters",
        message:
          "parameters.properties.filters: Gemini requires an object to declare at least one property (declare its properties, or make it a string holding JSON)",
      },
    ]);
  });

  it("follows the policy (a denied tool is not checked) and strict mode (the compiled schema is)", async () => {
    const db = await setup();
    await putAgent(db, OPERATOR, "gem", { model: GEMINI, tools_allow: ONLY, tools_deny: ["search"] });
    expect(await listDialectProblems(db)).toStrictEqual([]);
    await putAgent(db, OPERATOR, "gem", { model: { ...GEMINI, strict: true }, tools_allow: ONLY });
    // Strict mode drops additionalProperties; an object with no properties is still refused by Gemini.
    expect((await listDialectProblems(db, { agent: "gem" })).map((p) => p.message)).toStrictEqual([
      "parameters.properties.filters: Gemini requires an object to declare at least one property (declare its properties, or make it a string holding JSON)",
    ]);
    await putAgent(db, OPERATOR, "oa", {
      model: { provider: "openai", model: "gpt", api_key_secret: "k", strict: true },
      tools_allow: ONLY,
    });
    expect(await listDialectProblems(db, { agent: "oa" })).toStrictEqual([]);
  });

  it("shows in the catalog response and in doctor", async () => {
    const db = await setup();
    await putAgent(db, OPERATOR, "gem", { model: GEMINI, tools_allow: ONLY });
    const catalog = await listCatalogWithDialectProblems(db);
    const search = catalog.find((t) => t.name === "search") as { dialect_problems?: unknown[] };
    expect(search.dialect_problems).toHaveLength(2);
    expect(catalog.find((t) => t.name === "plain")).not.toHaveProperty("dialect_problems");
    const doctor = await runDoctor(db, parseEnv({ INSIKA_DATA_DIR: "/tmp/insika-doctor-test" }));
    const check = doctor.checks.find((c) => c.name === "provider-dialects");
    expect(check?.status).toBe("warn");
    expect(check?.items?.[0]).toBe(
      "gem / search: parameters.properties.filters: Gemini does not accept additionalProperties (remove it, or set model.strict: true to have Insika compile it for the provider)",
    );
  });
});

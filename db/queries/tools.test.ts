import { describe, expect, it } from "vitest";
import { openDb } from "../client";
import type { DataToolDefinition } from "@/lib/tools/types";
import { getCatalogVersion } from "./settings";
import { KEPT_VERSIONS, deleteTool, getTool, listToolVersions, writeTools } from "./tools";

const def = (name: string, description = "d"): DataToolDefinition => ({
  name,
  description,
  parameters: { type: "object", properties: {} },
  request: { method: "GET", url: "https://a.example/x", headers: {}, query: {} },
  response: { extract: "body_raw" },
  secret_headers: [],
  side_effect: false,
  timeout: 30,
  group: null,
  tags: [],
});

describe("tool queries", () => {
  it("creates, updates and skips unchanged writes, bumping the catalog version once per write", async () => {
    const db = openDb(":memory:");
    expect(await getCatalogVersion(db)).toBe(0);
    const first = await writeTools(db, {
      writes: [
        { definition: def("a"), kind: "data" },
        { definition: def("b"), kind: "data" },
      ],
      source: "api",
    });
    expect(first).toMatchObject({ created: ["a", "b"], updated: [], unchanged: [] });
    expect(await getCatalogVersion(db)).toBe(1);
    const second = await writeTools(db, {
      writes: [
        { definition: def("a"), kind: "data" },
        { definition: def("b", "new"), kind: "data" },
      ],
      source: "api",
    });
    expect(second).toMatchObject({ created: [], updated: ["b"], unchanged: ["a"] });
    expect(await getCatalogVersion(db)).toBe(2);
    await writeTools(db, { writes: [{ definition: def("a"), kind: "data" }], source: "api" });
    expect(await getCatalogVersion(db)).toBe(2);
    expect((await getTool(db, "b"))?.version).toBe(2);
  });

  it("records deletes in the history and continues the version numbers after a re-create", async () => {
    const db = openDb(":memory:");
    await writeTools(db, { writes: [{ definition: def("a"), kind: "data" }], source: "api" });
    expect(await deleteTool(db, { name: "a", source: "api" })).toBe(true);
    expect(await deleteTool(db, { name: "a", source: "api" })).toBe(false);
    await writeTools(db, { writes: [{ definition: def("a"), kind: "data" }], source: "api" });
    expect((await listToolVersions(db, "a")).map((v) => [v.version, v.change])).toEqual([
      [3, "create"],
      [2, "delete"],
      [1, "create"],
    ]);
  });

  it(`keeps the last ${KEPT_VERSIONS} versions of a tool`, async () => {
    const db = openDb(":memory:");
    for (let i = 0; i < KEPT_VERSIONS + 5; i++)
      await writeTools(db, { writes: [{ definition: def("a", `v${i}`), kind: "data" }], source: "api" });
    const versions = await listToolVersions(db, "a");
    expect(versions).toHaveLength(KEPT_VERSIONS);
    expect(versions[0]?.version).toBe(KEPT_VERSIONS + 5);
  });

  it("rolls a failed multi-row write back entirely", async () => {
    const db = openDb(":memory:");
    const bad = { definition: { ...def("b"), name: null as unknown as string }, kind: "data" as const };
    await expect(
      writeTools(db, { writes: [{ definition: def("a"), kind: "data" }, bad], source: "api" }),
    ).rejects.toThrow();
    expect(await getTool(db, "a")).toBeUndefined();
    expect(await getCatalogVersion(db)).toBe(0);
  });
});

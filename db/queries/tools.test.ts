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
  it("creates, updates and skips unchanged writes, bumping the catalog version once per write", () => {
    const db = openDb(":memory:");
    expect(getCatalogVersion(db)).toBe(0);
    const first = writeTools(db, {
      writes: [
        { definition: def("a"), kind: "data" },
        { definition: def("b"), kind: "data" },
      ],
      source: "api",
    });
    expect(first).toMatchObject({ created: ["a", "b"], updated: [], unchanged: [] });
    expect(getCatalogVersion(db)).toBe(1);
    const second = writeTools(db, {
      writes: [
        { definition: def("a"), kind: "data" },
        { definition: def("b", "new"), kind: "data" },
      ],
      source: "api",
    });
    expect(second).toMatchObject({ created: [], updated: ["b"], unchanged: ["a"] });
    expect(getCatalogVersion(db)).toBe(2);
    writeTools(db, { writes: [{ definition: def("a"), kind: "data" }], source: "api" });
    expect(getCatalogVersion(db)).toBe(2);
    expect(getTool(db, "b")?.version).toBe(2);
  });

  it("records deletes in the history and continues the version numbers after a re-create", () => {
    const db = openDb(":memory:");
    writeTools(db, { writes: [{ definition: def("a"), kind: "data" }], source: "api" });
    expect(deleteTool(db, { name: "a", source: "api" })).toBe(true);
    expect(deleteTool(db, { name: "a", source: "api" })).toBe(false);
    writeTools(db, { writes: [{ definition: def("a"), kind: "data" }], source: "api" });
    expect(listToolVersions(db, "a").map((v) => [v.version, v.change])).toEqual([
      [3, "create"],
      [2, "delete"],
      [1, "create"],
    ]);
  });

  it(`keeps the last ${KEPT_VERSIONS} versions of a tool`, () => {
    const db = openDb(":memory:");
    for (let i = 0; i < KEPT_VERSIONS + 5; i++)
      writeTools(db, { writes: [{ definition: def("a", `v${i}`), kind: "data" }], source: "api" });
    const versions = listToolVersions(db, "a");
    expect(versions).toHaveLength(KEPT_VERSIONS);
    expect(versions[0]?.version).toBe(KEPT_VERSIONS + 5);
  });

  it("rolls a failed multi-row write back entirely", () => {
    const db = openDb(":memory:");
    const bad = { definition: { ...def("b"), name: null as unknown as string }, kind: "data" as const };
    expect(() => writeTools(db, { writes: [{ definition: def("a"), kind: "data" }, bad], source: "api" })).toThrow();
    expect(getTool(db, "a")).toBeUndefined();
    expect(getCatalogVersion(db)).toBe(0);
  });
});

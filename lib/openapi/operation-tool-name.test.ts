import { describe, expect, it } from "vitest";
import { TOOL_NAME_PATTERN } from "@/lib/tools";
import { nameOperations, normalizeOperationName, operationToolName } from "./operation-tool-name";

describe("operation tool names", () => {
  it.each([
    ["getPetById", "get_pet_by_id"],
    ["repos/get-content", "repos_get_content"],
    ["HTTPServerGet", "http_server_get"],
    ["2fa.verify", "op_2fa_verify"],
    ["", "op"],
    ["Ünïcode ∑", "n_code"],
    ["x".repeat(100), "x".repeat(64)],
  ])("%j -> %j", (id, name) => {
    expect(normalizeOperationName(id)).toBe(name);
    expect(name).toMatch(TOOL_NAME_PATTERN);
  });

  it("falls back to method and path, stably", () => {
    expect(operationToolName({ method: "get", path: "/pets/{petId}/tags" })).toBe("get_pets_pet_id_tags");
    expect(operationToolName({ operationId: "  ", method: "delete", path: "/" })).toBe("delete");
  });

  it("settles collisions by METHOD path order, whatever the document's order", () => {
    const a = { operationId: "list", method: "get", path: "/b" };
    const b = { operationId: "list", method: "get", path: "/a" };
    const c = { operationId: "list_2", method: "post", path: "/c" };
    expect(nameOperations([a, b, c])).toStrictEqual(["list_3", "list", "list_2"]);
    expect(nameOperations([c, b, a])).toStrictEqual(["list_2", "list", "list_3"]);
  });
});

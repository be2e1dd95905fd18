// The Studio honours scopes: every page checks its scopes itself (requirePage, which also holds
// on an RSC request that renders the page without its layout), and the pages table decides
// what each kind of key sees. Walks app/(studio), so a page added without a check fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Principal } from "@/lib/access/principal";
import type { Scope } from "@/lib/access/scopes";
import { STUDIO_PAGES, homeOf, readOnlyReason, studioPageOf } from "@/app/(studio)/studio-pages";

const ROOT = path.join(process.cwd(), "app", "(studio)");
const pages = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? pages(path.join(dir, e.name)) : e.name === "page.tsx" ? [path.join(dir, e.name)] : [],
    );

const key = (scopes: Scope[], agents: string[] | null = null): Principal => ({
  keyId: "key_t",
  keyName: "t",
  scopes,
  agents,
  tenant: null,
  turnsPerMinute: null,
  source: "studio",
});
const visible = (p: Principal) =>
  STUDIO_PAGES.filter((page) => readOnlyReason(p, page.scopes, "x") === null).map((page) => page.href);

describe("Studio page scopes", () => {
  it("every page but /no-access calls requirePage with a known page (or explicit scopes)", () => {
    const problems: string[] = [];
    for (const file of pages(ROOT)) {
      const rel = path.relative(ROOT, file);
      if (rel === path.join("no-access", "page.tsx")) continue;
      const call = /await requirePage\("([^"]+)"(, \[[^\]]*\]| ?, ?\w+)?\)/.exec(fs.readFileSync(file, "utf8"));
      if (!call) problems.push(`${rel}: no requirePage()`);
      else if (!call[2] && !studioPageOf(call[1]!)) problems.push(`${rel}: '${call[1]}' is not in STUDIO_PAGES`);
    }
    expect(problems).toEqual([]);
  });

  it("an admin key sees every page, Keys and Audit included", () => {
    expect(visible(key(["admin"]))).toEqual(STUDIO_PAGES.map((p) => p.href));
  });

  it("a traces:read key sees the read pages, not the playground, Keys or Audit", () => {
    expect(visible(key(["traces:read"]))).toEqual([
      "/",
      "/tools",
      "/mcp",
      "/openapi",
      "/agents",
      "/approvals",
      "/sessions",
      "/calls",
      "/doctor",
    ]);
    expect(homeOf(key(["traces:read"]))).toBe("/");
  });

  it("a turns:run key sees only the playground, and lands there", () => {
    expect(visible(key(["turns:run"], ["support"]))).toEqual(["/playground"]);
    expect(homeOf(key(["turns:run"]))).toBe("/playground");
  });

  it("a key with no Studio page has no home", () => {
    expect(homeOf(key([]))).toBeUndefined();
  });

  it("the read-only line names the key's scopes and the scope editing needs", () => {
    expect(readOnlyReason(key(["traces:read"]), ["tools:write"], "changing tools")).toBe(
      "This key can read, not change: it has traces:read; changing tools needs tools:write.",
    );
    expect(readOnlyReason(key(["tools:write"]), ["tools:write"], "changing tools")).toBeNull();
    expect(readOnlyReason(key(["tools:write"]), ["agents:write"], "changing agents")).toMatch(/needs agents:write/);
    expect(readOnlyReason(key(["admin"]), ["agents:write"], "changing agents")).toBeNull();
  });

  it("a path maps to its page; an unknown or look-alike path to none", () => {
    expect(studioPageOf("/tools/lookup")?.href).toBe("/tools");
    expect(studioPageOf("/")?.href).toBe("/");
    expect(studioPageOf("/toolsx")).toBeUndefined();
    expect(studioPageOf("//evil.example")).toBeUndefined();
  });
});

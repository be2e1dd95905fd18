// A server action is an endpoint of its own: any signed-in key can call it, whatever page it may
// open. So each one checks the key's scopes itself (assertScope), not only the page that shows
// it. Walks app/(studio), so an action added without a scope check fails here; and calls the
// egress verdict action as a key that may only run turns (its only page is the playground).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/access/principal";

const RUN_ONLY: Principal = {
  keyId: "key_run",
  keyName: "runs turns",
  scopes: ["turns:run"],
  agents: ["a1"],
  tenant: null,
  turnsPerMinute: null,
  source: "studio",
};

vi.mock("@/lib/api/studio-auth", () => ({ requireStudioSession: async () => RUN_ONLY }));

const { checkUrlAction } = await import("@/app/(studio)/tools/actions");

const ROOT = path.join(process.cwd(), "app", "(studio)");
/** Actions any signed-in key may call: signing out ends the caller's own session. */
const OPEN_TO_EVERY_KEY = new Set(["actions.ts: signOutAction"]);

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Each exported async function of a "use server" file, with its text up to the next export. */
function actionsOf(file: string): { name: string; body: string }[] {
  const source = fs.readFileSync(file, "utf8");
  return source
    .split(/^export /m)
    .slice(1)
    .map((chunk) => ({ name: /^async function (\w+)/.exec(chunk)?.[1], body: chunk }))
    .filter((a): a is { name: string; body: string } => a.name !== undefined);
}

describe("Studio action scopes", () => {
  it("every exported server action checks the key's scopes itself", () => {
    const actionFiles = files(ROOT).filter((f) => /^["']use server["'];/.test(fs.readFileSync(f, "utf8")));
    expect(actionFiles.length).toBeGreaterThan(3);
    const unchecked = actionFiles
      .flatMap((f) => actionsOf(f).map((a) => ({ ...a, id: `${path.relative(ROOT, f)}: ${a.name}` })))
      .filter((a) => !OPEN_TO_EVERY_KEY.has(a.id) && !/\bassertScope\(actor, /.test(a.body))
      .map((a) => a.id);
    expect(unchecked).toEqual([]);
  });

  it("a key that only runs turns gets no egress verdict: it would read the egress allowlist", async () => {
    const result = await checkUrlAction("http://billing.internal.example/");
    expect(result).toMatchObject({ ok: false, code: "forbidden" });
  });
});

import { describe, expect, it } from "vitest";
import { dataTool } from "@/test/support/data-tool";
import { staticSecrets } from "@/lib/secrets/secret-source";
import type { Catalog, CatalogEntry } from "@/lib/services/tools/catalog";
import { callDescriber } from "./sent-call-record";

const TOKEN = "tok-very-secret-123";
const charge = dataTool({
  name: "charge",
  parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  request: {
    method: "POST",
    url: "https://pay.example/charge/{{key}}",
    headers: { Authorization: `Bearer {{secret.pay_token}}`, "X-Chat": "{{ctx.chat_id}}" },
    query: {},
    body: { key: "{{key}}" },
  },
  secret_headers: ["Authorization"],
});
const entry = (e: Partial<CatalogEntry>) => e as CatalogEntry;
const catalog: Catalog = {
  version: 1,
  entries: new Map([
    ["charge", entry({ name: "charge", kind: "data", status: "ok", definition: charge, version: 1 })],
    ["broken", entry({ name: "broken", kind: "data", status: "dropped", problem: "bad", version: 1 })],
    ["clock", entry({ name: "clock", kind: "code", status: "ok" })],
  ]),
};
const describeCall = callDescriber({
  catalog,
  ctx: { chat_id: "ses_1" },
  secrets: staticSecrets({ pay_token: TOKEN }),
  isSystemTool: (name) => name === "remember",
});
const call = (tool: string, args: unknown) =>
  describeCall({ identity: "i", step: 0, position: 0, callId: "c1", tool, arguments: args });

describe("callDescriber (what a call is about to send, for the journal)", () => {
  it("builds the data tool's request as the executor will, secret header masked and no secret value anywhere", () => {
    const sent = call("charge", { key: `a/${TOKEN}` });
    expect(sent).toMatchObject({
      call_id: "c1",
      tool: "charge",
      kind: "data",
      request: { method: "POST", headers: { Authorization: "[secret]", "X-Chat": "ses_1" } },
    });
    expect(sent.request?.url.startsWith("https://pay.example/charge/a%2F")).toBe(true);
    // The model put the secret in an argument: redacted by value, in the URL and the arguments too.
    expect(JSON.stringify(sent)).not.toContain(TOKEN);
  });

  it("records no request when nothing would be sent, and never throws", () => {
    expect(call("charge", { key: 5 })).toMatchObject({ kind: "data", request: null, arguments: { key: 5 } });
    expect(call("charge", "not json")).toMatchObject({ request: null, arguments: "not json" });
    expect(call("broken", {})).toMatchObject({ kind: "data", request: null });
    expect(call("clock", {})).toMatchObject({ kind: "code", request: null });
    expect(call("remember", { text: "x" })).toMatchObject({ kind: "system", request: null });
    expect(call("__proto__", undefined)).toMatchObject({ kind: "data", request: null, arguments: null });
    const noSecret = callDescriber({ catalog, ctx: {}, secrets: staticSecrets({}), isSystemTool: () => false });
    expect(
      noSecret({ identity: "i", step: 0, position: 0, callId: "c", tool: "charge", arguments: { key: "k" } }),
    ).toMatchObject({ request: null });
  });
});

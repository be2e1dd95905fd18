/**
 * The provider fetch against loopback servers: the guard decides per call (a loopback
 * endpoint needs INSIKA_PROVIDER_HOSTS), a redirect is never followed, and a failing
 * provider's body reaches the caller only as a short redacted excerpt.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEgressDispatcher, parseProviderPosture, type EgressPosture } from "@/lib/egress";
import { harness, recordingConnector } from "@/test/support/egress-doubles";
import { collect, firstTurn, secrets } from "@/test/support/wire-fixtures";
import { ProviderError } from "./provider-error";
import { createModel } from "./create-model";
import { MAX_EXCERPT_CHARS } from "./provider-error";
import { createProviderFetch } from "./provider-fetch";
import { rejectionOf } from "@/test/support/rejection";

const KEY = "sk-live-0123456789abcdef";
const h = harness();
afterEach(() => h.cleanup());

function fetchFor(posture: EgressPosture) {
  return createProviderFetch(posture, { dispatcher: h.dispatcher(posture) });
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

const model = (baseUrl: string, posture: EgressPosture) =>
  createModel(
    { provider: "openai-compatible", model: "m", base_url: `${baseUrl}/v1`, api_key_secret: "llm_key" },
    { readSecret: secrets({ llm_key: KEY }), fetch: fetchFor(posture) },
  );

describe("createProviderFetch", () => {
  it("refuses a loopback endpoint that INSIKA_PROVIDER_HOSTS does not list, before any connect", async () => {
    const posture = parseProviderPosture(undefined);
    const { connector, attempts } = recordingConnector({ loopback: true });
    const f = createProviderFetch(posture, { dispatcher: createEgressDispatcher(posture, { connector }) });
    const error = await failure(f("http://127.0.0.1:9/v1/chat/completions", { method: "POST", body: "{}" }));
    expect(error.message).toBe(
      "provider endpoint blocked: destination blocked: plain http is not allowed (https only) (rule plain-http; list 127.0.0.1 in INSIKA_PROVIDER_HOSTS or use https)",
    );
    expect(attempts).toEqual([]);
  });

  it("reaches a listed loopback endpoint on any port", async () => {
    const s = await h.server((_req, res) => res.end("ok"));
    const res = await fetchFor(parseProviderPosture("127.0.0.1"))(`${s.origin}/v1/models`);
    expect(await res.text()).toBe("ok");
  });

  it("does not follow a redirect, and says so without the target's path", async () => {
    const elsewhere = await h.server((_req, res) => res.end("should never be asked"));
    const s = await h.server((_req, res) =>
      res.writeHead(307, { location: `${elsewhere.origin}/steal?key=${KEY}` }).end(),
    );
    const posture = parseProviderPosture("127.0.0.1");
    const error = await failure(
      fetchFor(posture)(`${s.origin}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}` },
        body: "{}",
      }),
    );
    expect(error.message).toBe(
      `provider endpoint answered 307 (a redirect to ${elsewhere.origin}); redirects are not followed: set model.base_url to the final URL`,
    );
    expect(error.status).toBe(307);
    expect(elsewhere.requests).toEqual([]);

    // Through a model too: the turn's error is that message, and the key went nowhere else.
    const failed = await failure(collect(model(s.origin, posture), firstTurn));
    expect(failed.message).toContain("redirects are not followed");
    expect(failed.message).not.toContain(KEY);
    expect(elsewhere.requests).toEqual([]);
  });

  it("turns a 500 whose body holds the key into a short redacted excerpt", async () => {
    const leak = `${"x".repeat(MAX_EXCERPT_CHARS - 10)}${KEY} and again ${encodeURIComponent(KEY)} ${Buffer.from(KEY).toString("base64")} ${"y".repeat(5000)}`;
    const s = await h.server((_req, res) => res.writeHead(500, { "content-type": "text/plain" }).end(leak));
    const error = await failure(collect(model(s.origin, parseProviderPosture("127.0.0.1")), firstTurn));
    expect(error.status).toBe(500);
    expect(error.message.startsWith("provider error: 500 Internal Server Error: xxxx")).toBe(true);
    expect(error.message.length).toBeLessThanOrEqual(MAX_EXCERPT_CHARS + 60);
    // The key straddles the cut: redacted first, so not even its prefix survives.
    expect(error.message).not.toContain(KEY.slice(0, 8));
    expect(error.message).not.toContain("y".repeat(10));
  });

  it("turns a JSON error message holding the key into a redacted excerpt", async () => {
    const s = await h.server((_req, res) =>
      res.writeHead(401, { "content-type": "application/json" }).end(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${KEY}. ${"z".repeat(3000)}`,
            type: "invalid_request_error",
          },
        }),
      ),
    );
    const error = await failure(collect(model(s.origin, parseProviderPosture("127.0.0.1")), firstTurn));
    expect(error.message.startsWith("provider error: 401 Unauthorized: Incorrect API key provided: [secret].")).toBe(
      true,
    );
    expect(error.message.length).toBeLessThanOrEqual(MAX_EXCERPT_CHARS + 60);
  });
});

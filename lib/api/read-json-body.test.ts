import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { statusOf } from "./errors";
import { readBodyBytes, readJsonBody } from "./read-json-body";

/** A request whose body stream records how many chunks were pulled and whether it was cancelled. */
function streamingRequest(chunks: Uint8Array[], headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.pulled++;
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  const req = new Request("http://127.0.0.1/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { req, seen };
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const kib = (n: number) => new Uint8Array(n * 1024).fill(0x20);

describe("readJsonBody", () => {
  it("stops reading at the cap and cancels the upload (no Content-Length)", async () => {
    const { req, seen } = streamingRequest(Array.from({ length: 100 }, () => kib(1)));
    const error = await failure(readBodyBytes(req, 4 * 1024));
    expect(statusOf(error.code)).toBe(413);
    expect(error.code).toBe("payload_too_large");
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(10);
  });

  it("refuses a Content-Length over the cap before reading anything", async () => {
    const { req, seen } = streamingRequest([kib(1)], { "content-length": String(10 * 1024 * 1024) });
    expect(statusOf((await failure(readBodyBytes(req, 1024))).code)).toBe(413);
    expect(seen.pulled).toBeLessThanOrEqual(1);
  });

  it("counts bytes, not UTF-16 units", async () => {
    // 3 characters, 9 bytes of UTF-8 (+2 quotes): over a cap of 10 bytes.
    const text = JSON.stringify("€€€");
    const small = new Request("http://127.0.0.1/x", { method: "POST", body: text });
    expect(statusOf((await failure(readJsonBody(small, 10))).code)).toBe(413);
    const ok = new Request("http://127.0.0.1/x", { method: "POST", body: text });
    expect(await readJsonBody(ok, 11)).toBe("€€€");
  });

  it("refuses bytes that are not UTF-8 with 400", async () => {
    const { req } = streamingRequest([new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])]);
    const error = await failure(readJsonBody(req, 1024));
    expect(statusOf(error.code)).toBe(400);
    expect(error.message).toMatch(/UTF-8/);
  });

  it("refuses empty bodies and bad JSON with 400 bad_json", async () => {
    expect((await failure(readJsonBody(new Request("http://x/", { method: "POST", body: "  " }), 1024))).code).toBe(
      "bad_json",
    );
    expect((await failure(readJsonBody(new Request("http://x/", { method: "POST", body: "{nope" }), 1024))).code).toBe(
      "bad_json",
    );
    expect((await failure(readJsonBody(new Request("http://x/", { method: "POST" }), 1024))).code).toBe("bad_json");
  });

  it("refuses a body nested deeper than 64 levels before anything recurses over it", async () => {
    const deep = (n: number) => `{"name":${"[".repeat(n)}${"]".repeat(n)}}`;
    const error = await failure(readJsonBody(new Request("http://x/", { method: "POST", body: deep(5000) }), 1 << 20));
    expect(statusOf(error.code)).toBe(400);
    expect(error.message).toMatch(/nested more than 64/);
    // 63 arrays inside the object: 64 levels, the limit itself.
    await expect(
      readJsonBody(new Request("http://x/", { method: "POST", body: deep(63) }), 1 << 20),
    ).resolves.toBeTypeOf("object");
    expect(
      statusOf(
        (await failure(readJsonBody(new Request("http://x/", { method: "POST", body: deep(64) }), 1 << 20))).code,
      ),
    ).toBe(400);
  });

  it("turns a body the client stopped sending into a 400, not an unknown error", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([0x7b]));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const req = new Request("http://127.0.0.1/x", { method: "POST", body, duplex: "half" } as RequestInit);
    const error = await failure(readJsonBody(req, 1024));
    expect(statusOf(error.code)).toBe(400);
    expect(error.message).toMatch(/could not be read: aborted/);
  });
});

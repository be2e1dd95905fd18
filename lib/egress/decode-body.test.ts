import { PassThrough, Readable } from "node:stream";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { MAX_CONTENT_CODINGS, UnsupportedEncodingError, decodeBody, readCapped } from "./decode-body";

// readCapped listens to stream events directly (not `for await`); these pin the
// answers the async iterator used to give in every state a body can be in.
describe("readCapped", () => {
  it("reads a whole body under the cap, and an empty one", async () => {
    expect(await readCapped(Readable.from([Buffer.from("abc")]), 3)).toEqual({
      body: Buffer.from("abc"),
      truncated: false,
    });
    expect(await readCapped(Readable.from([]), 10)).toEqual({ body: Buffer.alloc(0), truncated: false });
  });

  it("stops at the cap and destroys the stream", async () => {
    const source = Readable.from([Buffer.from("abc"), Buffer.from("defgh"), Buffer.from("never read")]);
    expect(await readCapped(source, 5)).toEqual({ body: Buffer.from("abcde"), truncated: true });
    expect(source.destroyed).toBe(true);
  });

  it("takes string chunks as UTF-8", async () => {
    const s = new PassThrough();
    s.setEncoding("utf8");
    const read = readCapped(s, 10);
    s.end("héllo");
    expect((await read).body.toString("utf8")).toBe("héllo");
  });

  it("rejects with the stream's error, before or during the read", async () => {
    const early = new PassThrough();
    early.on("error", () => {});
    early.destroy(new Error("early"));
    await expect(readCapped(early, 10)).rejects.toThrow("early");
    const late = new PassThrough();
    const read = readCapped(late, 10);
    late.write("ab");
    late.destroy(new Error("late"));
    await expect(read).rejects.toThrow("late");
  });

  it("rejects a stream that closes before its end as a premature close", async () => {
    const early = new PassThrough();
    early.destroy();
    await expect(readCapped(early, 10)).rejects.toMatchObject({ code: "ERR_STREAM_PREMATURE_CLOSE" });
    const late = new PassThrough();
    const read = readCapped(late, 10);
    late.write("ab");
    late.destroy();
    await expect(read).rejects.toMatchObject({ code: "ERR_STREAM_PREMATURE_CLOSE" });
  });
});

describe("decodeBody", () => {
  it("hands an unencoded body back as is (no header, empty, identity), still capped by readCapped", async () => {
    for (const coding of [undefined, "", "identity"]) {
      const body = Readable.from([Buffer.from("abc"), Buffer.from("defgh")]);
      expect(decodeBody(body, coding)).toBe(body);
      expect(await readCapped(decodeBody(body, coding), 4)).toEqual({ body: Buffer.from("abcd"), truncated: true });
      expect(body.destroyed).toBe(true);
    }
  });

  it("parses anything else: identity in a list or in another case, gzip, and refuses unknown codings", async () => {
    for (const coding of ["IDENTITY", " identity ", "identity, identity", ","]) {
      const body = Readable.from([Buffer.from("plain")]);
      expect(decodeBody(body, coding)).toBe(body);
    }
    const gz = Readable.from([zlib.gzipSync("hello")]);
    const decoded = decodeBody(gz, "identity, gzip");
    expect(decoded).not.toBe(gz);
    expect(await readCapped(decoded, 100)).toEqual({ body: Buffer.from("hello"), truncated: false });
    expect(() => decodeBody(Readable.from([]), "zstd")).toThrow(UnsupportedEncodingError);
  });

  it("undoes up to MAX_CONTENT_CODINGS codings", async () => {
    let data = Buffer.from("layered");
    for (let i = 0; i < MAX_CONTENT_CODINGS; i += 1) data = zlib.gzipSync(data);
    const decoded = decodeBody(Readable.from([data]), Array(MAX_CONTENT_CODINGS).fill("gzip").join(", "));
    expect(await readCapped(decoded, 100)).toEqual({ body: Buffer.from("layered"), truncated: false });
  });

  it("refuses more codings than that before making any decoder (each costs memory and main-thread time)", () => {
    const many = Array(5000).fill("br").join(",");
    const body = Readable.from([Buffer.from("x")]);
    expect(() => decodeBody(body, many)).toThrow(UnsupportedEncodingError);
    expect(() => decodeBody(body, many)).toThrow(`too many content-codings (5000; at most ${MAX_CONTENT_CODINGS})`);
    // identity entries are not codings: they do not count
    const plain = Readable.from([Buffer.from("plain")]);
    expect(decodeBody(plain, Array(50).fill("identity").join(","))).toBe(plain);
  });
});

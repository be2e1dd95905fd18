import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readCapped } from "./decode-body";

describe("readCapped with stopWhen", () => {
  it("ends the read at the chunk the predicate accepts, on a stream that never ends, and frees it", async () => {
    const s = new PassThrough();
    const seen: string[] = [];
    const read = readCapped(s, 1000, (chunk) => {
      seen.push(chunk.toString());
      return chunk.toString().includes("answer");
    });
    s.write("priming\n\n");
    s.write("the answer\n\n");
    s.write("never read");
    expect(await read).toEqual({ body: Buffer.from("priming\n\nthe answer\n\n"), truncated: false });
    expect(seen).toEqual(["priming\n\n", "the answer\n\n"]);
    expect(s.destroyed).toBe(true);
  });

  it("reads to the end when the predicate never accepts", async () => {
    const s = new PassThrough();
    const read = readCapped(s, 1000, () => false);
    s.end("abc");
    expect(await read).toEqual({ body: Buffer.from("abc"), truncated: false });
  });
});

import { describe, expect, it } from "vitest";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { FetchLike } from "@/lib/egress";
import { providerModel } from "./provider-model-cache";

const fakeModel = (id: string) => ({ modelId: id }) as unknown as LanguageModelV3;
const fetchA: FetchLike = async () => new Response("a");
const fetchB: FetchLike = async () => new Response("b");

describe("providerModel", () => {
  it("builds a model once per fetch and parts, and again for another key value or another fetch", () => {
    let built = 0;
    const build = () => fakeModel(`m${(built += 1)}`);
    const first = providerModel(fetchA, ["openai", "https://x/v1", "gpt", "key-1"], build);
    expect(providerModel(fetchA, ["openai", "https://x/v1", "gpt", "key-1"], build)).toBe(first);
    expect(built).toBe(1);
    // A rotated key, another model id, another fetch: each its own model.
    expect(providerModel(fetchA, ["openai", "https://x/v1", "gpt", "key-2"], build)).not.toBe(first);
    expect(providerModel(fetchA, ["openai", "https://x/v1", "gpt-2", "key-1"], build)).not.toBe(first);
    expect(providerModel(fetchB, ["openai", "https://x/v1", "gpt", "key-1"], build)).not.toBe(first);
    expect(built).toBe(4);
  });

  it("keeps at most 64 models per fetch, dropping the oldest", () => {
    const fetch: FetchLike = async () => new Response("");
    let built = 0;
    const build = () => fakeModel(String((built += 1)));
    const oldest = providerModel(fetch, ["k", "0"], build);
    for (let i = 1; i <= 64; i += 1) providerModel(fetch, ["k", String(i)], build);
    expect(built).toBe(65);
    expect(providerModel(fetch, ["k", "64"], build)).toBeDefined();
    expect(built).toBe(65); // still kept
    expect(providerModel(fetch, ["k", "0"], build)).not.toBe(oldest); // dropped, built again
    expect(built).toBe(66);
  });
});

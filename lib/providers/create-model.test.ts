import { describe, expect, it } from "vitest";
import type { Model } from "@/lib/engine/ports";
import { createModel, type ModelConfig } from "./create-model";
import { DemoModel } from "./demo-model";
import { refusingFetch } from "@/test/support/loopback-model-server";

const deps = { readSecret: () => undefined, fetch: refusingFetch };

describe("createModel configuration", () => {
  it("builds the demo model without any secret", () => {
    expect(createModel({ provider: "demo", model: "demo" }, deps)).toBeInstanceOf(DemoModel);
  });

  it("returns the scripted model given in deps, and refuses without one", () => {
    const scripted: Model = { id: "scripted", stream: async function* () {} };
    expect(createModel({ provider: "scripted", model: "x" }, { ...deps, scripted })).toBe(scripted);
    expect(() => createModel({ provider: "scripted", model: "x" }, deps)).toThrow('provider "scripted" is for tests');
  });

  it("rejects an unknown provider by name", () => {
    const config = { provider: "gemini", model: "g" } as unknown as ModelConfig;
    expect(() => createModel(config, deps)).toThrow(
      'unknown model provider "gemini" (expected one of: openai-compatible, openai, anthropic, demo)',
    );
  });

  it("requires base_url for openai-compatible", () => {
    expect(() => createModel({ provider: "openai-compatible", model: "llama3" }, deps)).toThrow(
      'provider "openai-compatible" needs model.base_url',
    );
  });

  it("requires api_key_secret for openai and anthropic", () => {
    for (const provider of ["openai", "anthropic"] as const) {
      expect(() => createModel({ provider, model: "m" }, deps)).toThrow(
        `provider "${provider}" needs model.api_key_secret`,
      );
    }
  });

  it("rejects bad base URLs and credentials in them", () => {
    const make = (base_url: string) => () => createModel({ provider: "openai-compatible", model: "m", base_url }, deps);
    expect(make("not-a-url")).toThrow("model.base_url must be an absolute http or https URL");
    expect(make("ftp://127.0.0.1/v1")).toThrow("model.base_url must be an absolute http or https URL");
    expect(make("http://user:pw@127.0.0.1/v1")).toThrow(
      'provider "openai-compatible": model.base_url is refused by the egress guard (userinfo): URL contains credentials (user@host)',
    );
    expect(make("http://127.0.0.1\\v1")).toThrow("(backslash): URL contains a backslash");
    expect(make("http://metadata.google.internal/v1")).toThrow("(metadata-host)");
  });

  it("requires a model id", () => {
    expect(() => createModel({ provider: "anthropic", model: " ", api_key_secret: "k" }, deps)).toThrow(
      'provider "anthropic" needs model.model',
    );
  });

  it("does not read the secret until the model is called", () => {
    let reads = 0;
    createModel(
      { provider: "openai", model: "gpt", api_key_secret: "k" },
      {
        fetch: refusingFetch,
        readSecret: () => {
          reads++;
          return "v";
        },
      },
    );
    expect(reads).toBe(0);
  });

  it("sends a streamed step with `fetch` and a step nobody streams with `wholeAnswerFetch`", async () => {
    const configs: ModelConfig[] = [
      { provider: "openai-compatible", model: "m", base_url: "https://llm.example.com/v1" },
      { provider: "openai", model: "m", api_key_secret: "k" },
      { provider: "anthropic", model: "m", api_key_secret: "k" },
    ];
    for (const config of configs) {
      const used: string[] = [];
      const recording = (name: string) => async () => {
        used.push(name);
        throw new Error(`test: ${name} fetch refuses`);
      };
      const model = createModel(config, {
        readSecret: () => "v",
        fetch: recording("streamed"),
        wholeAnswerFetch: recording("whole"),
      });
      for (const streaming of [false, true]) {
        const parts = model.stream({
          messages: [{ role: "user", content: "hi" }],
          tools: [],
          signal: new AbortController().signal,
          streaming,
        });
        await expect(drain(parts)).rejects.toThrow();
      }
      expect(used, config.provider).toEqual(["whole", "streamed"]);
    }
  });
});

async function drain(parts: AsyncIterable<unknown>): Promise<void> {
  for await (const _part of parts) {
    // the fetch refuses before any part
  }
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Each namespace reads only its own env prefix and its own files (getEnv is read once: set the dir first).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "insika-secrets-"));
const saved = { ...process.env };
beforeAll(() => {
  process.env.INSIKA_SECRETS_DIR = dir;
  process.env.INSIKA_SECRET_TOOL_TOKEN = "tool-value";
  process.env.INSIKA_PROVIDER_SECRET_LLM_KEY = "provider-value";
  fs.writeFileSync(path.join(dir, "tool_file"), "tool-file-value\n");
  fs.mkdirSync(path.join(dir, "providers"));
  fs.writeFileSync(path.join(dir, "providers", "llm_file"), "provider-file-value\n");
});
afterAll(() => {
  process.env = saved;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("secret namespaces", () => {
  it("gives data tools their secrets and never a provider's", async () => {
    const { processSecrets } = await import("./secret-source");
    expect(processSecrets.read("tool_token")).toBe("tool-value");
    expect(processSecrets.read("tool_file")).toBe("tool-file-value");
    expect(processSecrets.read("llm_key")).toBeUndefined();
    expect(processSecrets.read("llm_file")).toBeUndefined();
    // Neither a directory nor a path reaches into providers/.
    expect(processSecrets.read("providers")).toBeUndefined();
    expect(processSecrets.read("providers/llm_file")).toBeUndefined();
    expect(processSecrets.read("../providers/llm_file")).toBeUndefined();
  });

  it("gives providers their keys and never a data tool's", async () => {
    const { providerSecrets } = await import("./secret-source");
    expect(providerSecrets.read("llm_key")).toBe("provider-value");
    expect(providerSecrets.read("LLM_KEY")).toBe("provider-value");
    expect(providerSecrets.read("llm_file")).toBe("provider-file-value");
    expect(providerSecrets.read("tool_token")).toBeUndefined();
    expect(providerSecrets.read("tool_file")).toBeUndefined();
    expect(providerSecrets.read("../tool_file")).toBeUndefined();
  });
});

/**
 * Builds the `Model` an agent's `model` config names (API.md: `{provider, model, base_url?,
 * api_key_secret?}`). API keys come only from secrets: `api_key_secret` names one, and its value
 * is read through `readSecret` at call time (so a rotated secret takes effect on the next turn),
 * never from the config row and never from the provider SDKs' own env fallbacks
 * (OPENAI_API_KEY, ANTHROPIC_BASE_URL, ...): we always pass key and base URL explicitly.
 * Provider endpoints are operator configuration: the SDK's fetch is used, not the egress guard
 * (DESIGN §3.11).
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { Model } from "@/lib/engine/ports";
import { AiSdkModel, ProviderError } from "./ai-sdk-model";
import { DemoModel } from "./demo-model";

export const MODEL_PROVIDERS = ["openai-compatible", "openai", "anthropic", "demo", "scripted"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export interface ModelConfig {
  provider: ModelProvider;
  model: string;
  /** Required for openai-compatible (Chat Completions live at `<base_url>/chat/completions`). */
  base_url?: string | null;
  /** The name of the secret holding the API key (DESIGN D3), never the key itself. */
  api_key_secret?: string | null;
}

export interface CreateModelDeps {
  /** The provisioned secret source; returns undefined when the secret is not provisioned. */
  readSecret: (name: string) => string | undefined;
  /** The model used for provider "scripted" (tests build it, e.g. with ./scripted). */
  scripted?: Model;
}

const OPENAI_BASE_URL = "https://api.openai.com/v1";
const ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";

/**
 * The model for an agent's config. Configuration errors (unknown provider, missing base_url or
 * api_key_secret, bad URL) throw here; a secret that is not provisioned throws when the model is
 * called, with a message that names the secret (never its value).
 */
export function createModel(config: ModelConfig, deps: CreateModelDeps): Model {
  const provider: string = config.provider;
  switch (config.provider) {
    case "demo":
      return new DemoModel();
    case "scripted":
      if (!deps.scripted) throw new Error('provider "scripted" is for tests: pass the model as deps.scripted');
      return deps.scripted;
    case "openai-compatible": {
      requireModelName(config);
      if (!config.base_url) {
        throw new Error(
          'provider "openai-compatible" needs model.base_url (e.g. http://127.0.0.1:11434/v1 for Ollama, https://api.openai.com/v1 for OpenAI)',
        );
      }
      const baseURL = checkBaseUrl(config.base_url, provider);
      return new AiSdkModel({
        id: `${provider}:${config.model}`,
        connect: () => {
          const apiKey = config.api_key_secret ? readKey(config.api_key_secret, deps) : undefined;
          const sdk = createOpenAICompatible({ name: "openai-compatible", baseURL, apiKey, includeUsage: true });
          return { model: sdk.chatModel(config.model), secrets: apiKey ? [apiKey] : [] };
        },
      });
    }
    case "openai": {
      requireModelName(config);
      const secretName = requireSecretName(config, provider);
      const baseURL = config.base_url ? checkBaseUrl(config.base_url, provider) : OPENAI_BASE_URL;
      return new AiSdkModel({
        id: `${provider}:${config.model}`,
        connect: () => {
          const apiKey = readKey(secretName, deps);
          // Chat Completions (not the Responses API): the same protocol as openai-compatible.
          const sdk = createOpenAI({ baseURL, apiKey });
          return { model: sdk.chat(config.model), secrets: [apiKey] };
        },
      });
    }
    case "anthropic": {
      requireModelName(config);
      const secretName = requireSecretName(config, provider);
      const baseURL = config.base_url ? checkBaseUrl(config.base_url, provider) : ANTHROPIC_BASE_URL;
      return new AiSdkModel({
        id: `${provider}:${config.model}`,
        systemPlacement: "leading",
        // Eager (fine-grained) tool-input streaming buys nothing here — the engine takes whole
        // calls — and can yield invalid JSON when output is cut off; it also adds a tool key.
        providerOptions: { anthropic: { toolStreaming: false } },
        connect: () => {
          const apiKey = readKey(secretName, deps);
          const sdk = createAnthropic({ baseURL, apiKey });
          return { model: sdk.messages(config.model), secrets: [apiKey] };
        },
      });
    }
    default: {
      const unknown: never = config.provider;
      throw new Error(
        `unknown model provider ${JSON.stringify(unknown)} (expected one of: ${MODEL_PROVIDERS.filter((p) => p !== "scripted").join(", ")})`,
      );
    }
  }
}

function requireModelName(config: ModelConfig): void {
  if (typeof config.model !== "string" || config.model.trim() === "") {
    throw new Error(`provider "${config.provider}" needs model.model (the provider's model id)`);
  }
}

function requireSecretName(config: ModelConfig, provider: string): string {
  if (!config.api_key_secret) {
    throw new Error(
      `provider "${provider}" needs model.api_key_secret (the name of the secret holding the API key); for a keyless endpoint use provider "openai-compatible"`,
    );
  }
  return config.api_key_secret;
}

function checkBaseUrl(value: string, provider: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`provider "${provider}": model.base_url is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`provider "${provider}": model.base_url must be http or https`);
  }
  if (url.username || url.password) {
    throw new Error(`provider "${provider}": model.base_url must not contain credentials (use api_key_secret)`);
  }
  return value.replace(/\/+$/, "");
}

/** Reads the API key at call time; the error names the secret and where it is looked up. */
function readKey(secretName: string, deps: CreateModelDeps): string {
  const value = deps.readSecret(secretName);
  if (value === undefined || value === "") {
    throw new ProviderError(
      `model API key secret "${secretName}" is not provisioned (set env INSIKA_SECRET_${secretName.toUpperCase()} or a file "${secretName}" in INSIKA_SECRETS_DIR)`,
    );
  }
  return value;
}

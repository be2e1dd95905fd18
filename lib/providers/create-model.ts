/**
 * Builds the `Model` an agent's `model` config names (API.md: `{provider, model, base_url?,
 * api_key_secret?}`). API keys come only from secrets: `api_key_secret` names one, and its value
 * is read through `readSecret` at call time (so a rotated secret takes effect on the next turn),
 * never from the config row and never from the provider SDKs' own env fallbacks
 * (OPENAI_API_KEY, ANTHROPIC_BASE_URL, ...): we always pass key and base URL explicitly.
 * Every provider call goes through the `fetch` in deps (createProviderFetch: the egress guard
 * under INSIKA_PROVIDER_HOSTS), never the SDKs' default global fetch. The SDK's model object is
 * reused across steps and turns (provider-model-cache.ts).
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { Model } from "@/lib/engine/ports";
import { checkUrlForm, type FetchLike } from "@/lib/egress";
import { PROVIDER_SECRET_PREFIX } from "@/lib/secrets/secret-source";
import { AiSdkModel } from "./ai-sdk-model";
import { ProviderError } from "./provider-error";
import { DemoModel } from "./demo-model";
import { dialectFor } from "./dialects";
import { providerModel } from "./provider-model-cache";

export const MODEL_PROVIDERS = ["openai-compatible", "openai", "anthropic", "demo", "scripted"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export interface ModelConfig {
  provider: ModelProvider;
  model: string;
  /** Required for openai-compatible (Chat Completions live at `<base_url>/chat/completions`). */
  base_url?: string | null;
  /** The name of the secret holding the API key (DESIGN D3), never the key itself. */
  api_key_secret?: string | null;
  /** Strict mode: tool schemas compiled to the provider's dialect when sent (lib/providers/dialects). */
  strict?: boolean | null;
}

export interface CreateModelDeps {
  /** The provider secret source (not the data tools'); returns undefined when the secret is not provisioned. */
  readSecret: (name: string) => string | undefined;
  /** How provider requests are sent: createProviderFetch (the guarded fetch) in production. */
  fetch: FetchLike;
  /**
   * How a step nobody streams is sent (one non-streaming call, its answer read whole):
   * createProviderFetch with `bufferUpTo` in production. Default: `fetch`.
   */
  wholeAnswerFetch?: FetchLike;
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
  const strictDialect = config.strict === true ? (dialectFor(config) ?? undefined) : undefined;
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
        strictDialect,
        connect: (streaming) => {
          const apiKey = config.api_key_secret ? readKey(config.api_key_secret, deps) : undefined;
          const fetch = fetchFor(deps, streaming);
          const model = providerModel(fetch, [provider, baseURL, config.model, apiKey ?? ""], () =>
            createOpenAICompatible({
              name: "openai-compatible",
              baseURL,
              apiKey,
              includeUsage: true,
              fetch,
            }).chatModel(config.model),
          );
          return { model, secrets: apiKey ? [apiKey] : [] };
        },
      });
    }
    case "openai": {
      requireModelName(config);
      const secretName = requireSecretName(config, provider);
      const baseURL = config.base_url ? checkBaseUrl(config.base_url, provider) : OPENAI_BASE_URL;
      return new AiSdkModel({
        id: `${provider}:${config.model}`,
        strictDialect,
        connect: (streaming) => {
          const apiKey = readKey(secretName, deps);
          const fetch = fetchFor(deps, streaming);
          // Chat Completions (not the Responses API): the same protocol as openai-compatible.
          const model = providerModel(fetch, [provider, baseURL, config.model, apiKey], () =>
            createOpenAI({ baseURL, apiKey, fetch }).chat(config.model),
          );
          return { model, secrets: [apiKey] };
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
        strictDialect,
        // Eager (fine-grained) tool-input streaming buys nothing here — the engine takes whole
        // calls — and can yield invalid JSON when output is cut off; it also adds a tool key.
        providerOptions: { anthropic: { toolStreaming: false } },
        connect: (streaming) => {
          const apiKey = readKey(secretName, deps);
          const fetch = fetchFor(deps, streaming);
          const model = providerModel(fetch, [provider, baseURL, config.model, apiKey], () =>
            createAnthropic({ baseURL, apiKey, fetch }).messages(config.model),
          );
          return { model, secrets: [apiKey] };
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

/** The fetch a step is sent with: a streamed step's body streams, a step nobody streams is read whole. */
function fetchFor(deps: CreateModelDeps, streaming: boolean): FetchLike {
  return streaming ? deps.fetch : (deps.wholeAnswerFetch ?? deps.fetch);
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

// The URL's form by the egress guard's own rules (call time applies the rest); no trailing slash.
function checkBaseUrl(value: string, provider: string): string {
  const block = checkUrlForm(value);
  if (block !== null) {
    if (block.rule === "scheme" || block.rule === "invalid-url") {
      throw new Error(`provider "${provider}": model.base_url must be an absolute http or https URL`);
    }
    throw new Error(
      `provider "${provider}": model.base_url is refused by the egress guard (${block.rule}): ${block.reason}`,
    );
  }
  return value.replace(/\/+$/, "");
}

/** Reads the API key at call time; the error names the secret and where it is looked up. */
function readKey(secretName: string, deps: CreateModelDeps): string {
  const value = deps.readSecret(secretName);
  if (value === undefined || value === "") {
    throw new ProviderError(
      `model API key secret "${secretName}" is not provisioned (set env ${PROVIDER_SECRET_PREFIX}${secretName.toUpperCase()} or a file "providers/${secretName}" in INSIKA_SECRETS_DIR; data-tool secrets, INSIKA_SECRET_*, are never sent to a provider)`,
      undefined,
      "provider_secret_missing",
    );
  }
  return value;
}

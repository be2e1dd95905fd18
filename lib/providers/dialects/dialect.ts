/**
 * Provider dialects of JSON Schema: what each provider accepts as a tool's
 * parameters. They disagree (OpenAI's strict mode wants every object closed
 * and every property required; Gemini refuses `additionalProperties`, `$ref`
 * and alternatives; Anthropic wants an object at the top), and a schema one
 * rejects fails the turn with a 400. An agent's dialect follows from its model.
 */

export const DIALECTS = ["openai-strict", "openai", "anthropic", "gemini", "openai-compatible"] as const;
export type Dialect = (typeof DIALECTS)[number];

/** How each dialect is named in a problem (`Gemini does not accept additionalProperties`). */
export const DIALECT_LABELS: Record<Dialect, string> = {
  "openai-strict": "OpenAI strict mode",
  openai: "OpenAI",
  anthropic: "Anthropic",
  gemini: "Gemini",
  "openai-compatible": "the OpenAI-compatible endpoint",
};

/** The parts of an agent's `model` the dialect depends on. */
export interface DialectModel {
  provider: string;
  base_url?: string | null;
  strict?: boolean | null;
}

// Google's OpenAI-compatible endpoint (generativelanguage.googleapis.com/v1beta/openai) speaks Gemini's schema dialect.
const GEMINI_HOST = /(^|\.)generativelanguage\.googleapis\.com$|(^|\.)aiplatform\.googleapis\.com$/i;

/**
 * The dialect of the provider an agent's model talks to: `openai` (strict
 * when `model.strict`), `anthropic`, `gemini` for an openai-compatible
 * base_url on Google's API hosts, else `openai-compatible`. The built-in
 * `demo` and `scripted` models accept anything: null.
 */
export function dialectFor(model: DialectModel): Dialect | null {
  switch (model.provider) {
    case "openai":
      return model.strict === true ? "openai-strict" : "openai";
    case "anthropic":
      return "anthropic";
    case "openai-compatible":
      return isGeminiUrl(model.base_url) ? "gemini" : model.strict === true ? "openai-strict" : "openai-compatible";
    default:
      return null;
  }
}

function isGeminiUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  try {
    return GEMINI_HOST.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

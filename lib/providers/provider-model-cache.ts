/**
 * Provider SDK models, reused across model steps and turns. Building one (its client, and the
 * response schemas the SDK compiles for it) costs more CPU than a small request, and it was
 * built for every step. A model is kept per fetch it sends with and per everything it is made
 * from — provider, base URL, model id and the API key's value — so a rotated key still takes
 * effect on the next step (a new entry), and at most MAX_MODELS are kept (the oldest goes).
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { FetchLike } from "@/lib/egress";

const MAX_MODELS = 64;

const byFetch = new WeakMap<FetchLike, Map<string, LanguageModelV3>>();

/** The model `build` makes for these `parts` with `fetch`, built once and then reused. */
export function providerModel(
  fetch: FetchLike,
  parts: readonly string[],
  build: () => LanguageModelV3,
): LanguageModelV3 {
  let models = byFetch.get(fetch);
  if (!models) byFetch.set(fetch, (models = new Map()));
  const key = JSON.stringify(parts);
  let model = models.get(key);
  if (!model) {
    model = build();
    models.set(key, model);
    if (models.size > MAX_MODELS) models.delete(models.keys().next().value as string);
  }
  return model;
}

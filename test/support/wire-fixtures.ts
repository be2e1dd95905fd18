/** Test-only: the conversation and tools the provider wire tests send. */
import type { Model, ModelMessage, ModelStreamPart, ModelToolSpec } from "@/lib/engine/ports";

export const searchCatalogSchema = {
  type: "object",
  properties: {
    query: { type: "string", description: "free text", minLength: 1 },
    limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
    query_filter_pairs: {
      type: "array",
      description: "filters, ANDed",
      items: {
        type: "object",
        properties: {
          field: { type: "string", enum: ["color", "brand", "price"] },
          value: { type: ["string", "number"] },
        },
        required: ["field", "value"],
        additionalProperties: false,
      },
      maxItems: 5,
    },
  },
  required: ["query"],
  additionalProperties: false,
} as const;

export const subscribeSchema = {
  type: "object",
  properties: { email: { type: "string", format: "email" } },
  required: ["email"],
} as const;

export function wireTools(): ModelToolSpec[] {
  return [
    {
      name: "search_catalog",
      description: "Search the product catalog.",
      parameters: structuredClone(searchCatalogSchema) as never,
    },
    {
      name: "subscribe",
      description: "Subscribe an email to the newsletter.",
      parameters: structuredClone(subscribeSchema) as never,
    },
  ];
}

export const firstTurn: ModelMessage[] = [
  { role: "system", content: "You are a shop assistant." },
  { role: "user", content: "find lamps and subscribe a@b.c" },
];

export const searchResult = '{"items":[{"id":1,"name":"Desk lamp"},{"id":2,"name":"Floor lamp"}]}';
export const subscribeResult = '{"status":"SUBSCRIBED"}';

/** The conversation after the first step: the assistant's calls and both tool results. */
export function secondTurn(leadIn: string, ids: [string, string], args: [string, string]): ModelMessage[] {
  return [
    ...firstTurn,
    {
      role: "assistant",
      content: leadIn,
      toolCalls: [
        { id: ids[0], name: "search_catalog", arguments: args[0] },
        { id: ids[1], name: "subscribe", arguments: args[1] },
      ],
    },
    { role: "tool", callId: ids[0], tool: "search_catalog", content: searchResult },
    { role: "tool", callId: ids[1], tool: "subscribe", content: subscribeResult },
  ];
}

export async function collect(
  model: Model,
  messages: ModelMessage[],
  tools: ModelToolSpec[] = wireTools(),
  signal: AbortSignal = new AbortController().signal,
): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of model.stream({ messages, tools, signal })) parts.push(part);
  return parts;
}

export const secrets = (values: Record<string, string>) => (name: string) =>
  Object.hasOwn(values, name) ? values[name] : undefined;

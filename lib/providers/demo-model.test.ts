import { describe, expect, it } from "vitest";
import type { ModelMessage, ModelStreamPart, ModelToolSpec } from "@/lib/engine/ports";
import { DemoModel, parsePairs, planDemoStep } from "./demo-model";

const tools: ModelToolSpec[] = [
  {
    name: "search_catalog",
    description: "Search the catalog.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: "integer" },
        price_max: { type: "number" },
        in_stock: { type: "boolean" },
        sku: { type: "string" },
        query_filter_pairs: { type: "array" },
      },
      required: ["query"],
    },
  },
  {
    name: "subscribe",
    description: "Subscribe.",
    parameters: { type: "object", properties: { email: { type: "string" } } },
  },
  {
    name: "tool_search",
    description: "Find more tools.",
    parameters: { type: "object", properties: { query: { type: "string" } } },
  },
];

async function run(messages: ModelMessage[], offered = tools): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of new DemoModel().stream({ messages, tools: offered, signal: new AbortController().signal }))
    parts.push(part);
  return parts;
}

const text = (parts: ModelStreamPart[]) => parts.flatMap((p) => (p.type === "text-delta" ? [p.text] : [])).join("");
const calls = (parts: ModelStreamPart[]) => parts.flatMap((p) => (p.type === "tool-call" ? [p.call] : []));

describe("DemoModel", () => {
  it("calls the named tool with typed key=value arguments after a streamed lead-in", async () => {
    const parts = await run([
      { role: "user", content: "search_catalog query=lamp limit=3 price_max=19.5 in_stock=true sku=007" },
    ]);
    const firstCall = parts.findIndex((p) => p.type === "tool-call");
    const deltas = parts.slice(0, firstCall);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((p) => p.type === "text-delta")).toBe(true);
    expect(text(parts)).toBe("Calling search_catalog…");
    expect(calls(parts)).toStrictEqual([
      {
        id: "demo_call_1",
        name: "search_catalog",
        arguments: '{"query":"lamp","limit":3,"price_max":19.5,"in_stock":true,"sku":"007"}',
      },
    ]);
    expect(parts.at(-1)).toStrictEqual({ type: "finish" });
  });

  it("matches the tool name as a word inside a sentence, and keeps untyped values as strings", async () => {
    const parts = await run([{ role: "user", content: "please call subscribe email=a@b.c limit=3" }]);
    expect(calls(parts)).toStrictEqual([
      { id: "demo_call_1", name: "subscribe", arguments: '{"email":"a@b.c","limit":"3"}' },
    ]);
  });

  it("streams no lead-in when the message says quiet", async () => {
    const parts = await run([{ role: "user", content: "quiet: subscribe email=x@y.z" }]);
    expect(parts.map((p) => p.type)).toStrictEqual(["tool-call", "finish"]);
  });

  it("supports quoted values (kept as strings) and JSON for array properties", async () => {
    const parts = await run([
      {
        role: "user",
        content:
          'search_catalog query="red \\"desk\\" lamp" limit="3" query_filter_pairs=[{"field":"color","value":"red"}]',
      },
    ]);
    expect(JSON.parse(calls(parts)[0]!.arguments)).toStrictEqual({
      query: 'red "desk" lamp',
      limit: "3",
      query_filter_pairs: [{ field: "color", value: "red" }],
    });
  });

  it("ignores tool names and 'quiet' inside values, and names inside longer words", async () => {
    expect(planDemoStep([{ role: "user", content: "find query=subscribe mode=quiet" }], tools).call).toBeUndefined();
    expect(planDemoStep([{ role: "user", content: "my_subscribe_list please" }], tools).call).toBeUndefined();
    const step = planDemoStep([{ role: "user", content: "subscribe note=quiet" }], tools);
    expect(step.text).toBe("Calling subscribe…");
  });

  it("calls tool_search only when it is named, and picks the earliest named tool", () => {
    expect(planDemoStep([{ role: "user", content: "what can you search for?" }], tools).call).toBeUndefined();
    expect(planDemoStep([{ role: "user", content: "tool_search query=x then subscribe" }], tools).call?.name).toBe(
      "tool_search",
    );
  });

  it("answers a tool result with the clipped JSON and says it is not an LLM", async () => {
    const big = JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ id: i })) });
    const messages: ModelMessage[] = [
      { role: "user", content: "search_catalog query=lamp" },
      {
        role: "assistant",
        content: "Calling search_catalog…",
        toolCalls: [{ id: "demo_call_1", name: "search_catalog", arguments: "{}" }],
      },
      { role: "tool", callId: "demo_call_1", tool: "search_catalog", content: big },
    ];
    const parts = await run(messages);
    const answer = text(parts);
    expect(calls(parts)).toHaveLength(0);
    expect(answer).toContain('The tool search_catalog returned: {"items":[{"id":0},{"id":1}');
    expect(answer).toContain("…");
    expect(answer.length).toBeLessThan(big.length);
    expect(answer).toContain("offline demo model, not an LLM");
    expect(parts.filter((p) => p.type === "text-delta").length).toBeGreaterThan(1);
  });

  it("numbers later calls after earlier ones in the session", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "subscribe email=a@b.c" },
      { role: "assistant", content: "", toolCalls: [{ id: "demo_call_1", name: "subscribe", arguments: "{}" }] },
      { role: "tool", callId: "demo_call_1", tool: "subscribe", content: '{"status":"SUBSCRIBED"}' },
      { role: "assistant", content: "The tool subscribe returned ..." },
      { role: "user", content: "subscribe email=c@d.e" },
    ];
    expect(planDemoStep(messages, tools).call?.id).toBe("demo_call_2");
  });

  it("lists the offered tools with an example when no tool is named", async () => {
    const answer = text(await run([{ role: "user", content: "hello there" }]));
    expect(answer).toContain("not an LLM");
    expect(answer).toContain("Offered tools: search_catalog, subscribe, tool_search.");
    expect(answer).toContain("Example: search_catalog query=example");
    expect(text(await run([{ role: "user", content: "hello" }], []))).toContain("offers no tools");
  });

  it("is deterministic", async () => {
    const messages: ModelMessage[] = [{ role: "user", content: "search_catalog query=lamp" }];
    expect(await run(messages)).toStrictEqual(await run(messages));
  });
});

describe("parsePairs", () => {
  it("reads bare, double- and single-quoted values", () => {
    expect(parsePairs(`a=1 b="x y" c='p q' d=`)).toStrictEqual([
      { key: "a", value: "1", quoted: false },
      { key: "b", value: "x y", quoted: true },
      { key: "c", value: "p q", quoted: true },
      { key: "d", value: "", quoted: false },
    ]);
  });

  it("keeps __proto__ as a plain argument key", () => {
    const step = planDemoStep([{ role: "user", content: "subscribe __proto__=x" }], tools);
    expect(JSON.parse(step.call!.arguments)).toStrictEqual(JSON.parse('{"__proto__":"x"}'));
  });
});

describe("demo model and deferred tools", () => {
  const search = {
    name: "tool_search",
    description: "search",
    parameters: { type: "object", properties: { query: { type: "string" } } },
  } as const;
  const order = {
    name: "order_status",
    description: "order",
    parameters: { type: "object", properties: { order_id: { type: "string" } } },
  } as const;

  it("asks tool_search for a named tool that is not offered, then calls it once promoted", () => {
    const system = { role: "system" as const, content: "Available tools (use tool_search):\n- order_status: order" };
    const user = { role: "user" as const, content: "order_status order_id=A-1001" };
    const first = planDemoStep([system, user], [search]);
    expect(first.call?.name).toBe("tool_search");
    expect(JSON.parse(first.call!.arguments)).toEqual({ query: "order_status" });
    const afterSearch = planDemoStep(
      [
        system,
        user,
        { role: "assistant", content: "", toolCalls: [first.call!] },
        { role: "tool", callId: first.call!.id, tool: "tool_search", content: "[]" },
      ],
      [search, order],
    );
    expect(afterSearch.call?.name).toBe("order_status");
    expect(JSON.parse(afterSearch.call!.arguments)).toEqual({ order_id: "A-1001" });
  });

  it("does not search for a tool the available list does not name, nor without tool_search", () => {
    const system = { role: "system" as const, content: "Available tools:\n- order_status: order" };
    expect(planDemoStep([system, { role: "user", content: "other_thing x=1" }], [search]).call).toBeUndefined();
    expect(planDemoStep([system, { role: "user", content: "order_status order_id=1" }], []).call).toBeUndefined();
  });

  // What a key that may run turns could send (200,000 characters is the message cap). The
  // expressions these once went through stalled the event loop (a quadratic number check:
  // ~2 s at 30,000 digits, minutes at the cap) or threw (a RegExp built from a word); each
  // case now finishes well within the test's timeout.
  it("keeps a long almost-number as text without trying every split of its digits", () => {
    const digits = `${"1".repeat(199_960)}x`;
    const almost = planDemoStep([{ role: "user", content: `search_catalog price_max=${digits}` }], tools);
    expect(JSON.parse(almost.call!.arguments)).toEqual({ price_max: digits });
  });

  it("looks a huge word up in the available tools without building an expression from it", () => {
    const word = "w".repeat(150_000);
    const system = { role: "system" as const, content: `Available tools:\n- order_status: order\n${word}` };
    expect(planDemoStep([system, { role: "user", content: word }], [search]).call).toMatchObject({
      name: "tool_search",
      arguments: JSON.stringify({ query: word }),
    });
  });

  it("finds the tool a long message names among 10,000 offered in one pass", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ ...order, name: `tool_${i}` }));
    const named = planDemoStep([{ role: "user", content: `${"a-b ".repeat(49_000)}TOOL_9999 then tool_5` }], many);
    expect(named.call?.name).toBe("tool_9999"); // any case, and the earliest named wins
  });
});

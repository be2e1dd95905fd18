import { describe, expect, it } from "vitest";
import { searchTokens, ToolSearchIndex } from "./tool-search-index";
import { runToolSearch } from "./tool-search";

const tools = [
  { name: "get_weather", description: "Current weather and forecast for a city" },
  { name: "weather_alerts", description: "Severe weather alerts for a region" },
  { name: "create_invoice", description: "Create an invoice for a customer order" },
  { name: "refund_order", description: "Refund a customer's order, fully or in part" },
  { name: "list_orders", description: "List a customer's orders" },
  { name: "send_email", description: "Send an email. Mentions weather only in passing" },
];

/** A 10,000-tool catalog: a few meaningful tools among many generated ones. */
function bigCatalog() {
  const generated = Array.from({ length: 10_000 - tools.length }, (_, i) => ({
    name: `svc${i}_op${i % 97}`,
    description: `Operation ${i % 97} of service ${i}: manages records, items and entries for team ${i % 13}`,
  }));
  return [...generated, ...tools];
}

describe("searchTokens", () => {
  it("splits names and camelCase, lower-cases, drops stopwords, stems plurals", () => {
    expect(searchTokens("get_weatherAlerts for the Cities")).toEqual(["get", "weather", "alert", "city"]);
  });
});

describe("ToolSearchIndex", () => {
  const index = new ToolSearchIndex(tools);

  it("ranks name matches above description-only matches", () => {
    const names = index.search("weather", { limit: 5 }).map((m) => m.name);
    expect(names.slice(0, 2).sort()).toEqual(["get_weather", "weather_alerts"]);
    expect(names.at(-1)).toBe("send_email");
  });

  it("puts the exact name first and matches words in any form", () => {
    expect(index.search("refund_order", { limit: 3 })[0]?.name).toBe("refund_order");
    expect(index.search("refunds", { limit: 1 })[0]?.name).toBe("refund_order");
    expect(index.search("invoices for customers", { limit: 1 })[0]?.name).toBe("create_invoice");
  });

  it("falls back to prefixes, honours limit and accept, and returns nothing for no match", () => {
    expect(index.search("invo", { limit: 5 }).map((m) => m.name)).toEqual(["create_invoice"]);
    expect(index.search("order", { limit: 1 })).toHaveLength(1);
    expect(
      index.search("order", { limit: 10, accept: (name) => name !== "refund_order" }).map((m) => m.name),
    ).not.toContain("refund_order");
    expect(index.search("zebra", { limit: 5 })).toEqual([]);
    expect(index.search("", { limit: 5 })).toEqual([]);
  });

  it("stays fast over 10,000 tools (index built once, each search about a millisecond)", () => {
    const catalog = bigCatalog();
    const built = performance.now();
    const big = new ToolSearchIndex(catalog);
    const buildMs = performance.now() - built;
    const queries = [
      "weather forecast",
      "refund a customer order",
      "records for team 7",
      "invoice",
      "alerts",
      "operation 42",
    ];
    const started = performance.now();
    for (let i = 0; i < 60; i += 1) big.search(queries[i % queries.length] as string, { limit: 5 });
    const perSearchMs = (performance.now() - started) / 60;
    expect(big.search("weather forecast", { limit: 1 })[0]?.name).toBe("get_weather");
    expect(big.search("refund a customer order", { limit: 1 })[0]?.name).toBe("refund_order");
    expect(buildMs).toBeLessThan(3000);
    expect(perSearchMs).toBeLessThan(10); // ~0.01-1 ms here; generous for a loaded CI machine
  });
});

describe("runToolSearch", () => {
  const index = new ToolSearchIndex(tools);
  const specs = (names: string[]) =>
    names.map((name) => ({ name, description: "d", parameters: { type: "object" as const } }));

  it("returns name and description of the matches among the deferred tools and promotes them", () => {
    const deferred = new Set(["get_weather", "refund_order"]);
    const result = runToolSearch({ query: "weather" }, { index, deferred, specs });
    expect(result.value).toEqual({
      matches: [{ name: "get_weather", description: "Current weather and forecast for a city" }],
      enabled: ["get_weather"],
    });
    expect(result.promote?.map((spec) => spec.name)).toEqual(["get_weather"]);
  });

  it("says so when nothing matches, and clamps the limit", () => {
    const deferred = new Set(tools.map((t) => t.name));
    expect(runToolSearch({ query: "zebra" }, { index, deferred, specs })).toEqual({
      value: { matches: [], note: "no available tool matched; try other words" },
    });
    expect(
      (runToolSearch({ query: "order", limit: 0 }, { index, deferred, specs }).value as { matches: unknown[] }).matches,
    ).toHaveLength(1);
  });
});

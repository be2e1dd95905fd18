import { expect, test, type Page } from "@playwright/test";
import { dbFile, openDb } from "@/db/client";
import { insertApproval } from "@/db/queries/approvals";
import { LoginPage } from "./pages/login-page";
import { OverviewPage } from "./pages/overview-page";
import { screen, screenVariants } from "./pages/studio";
import { seedCalls, SEED_TOOLS } from "../test/support/seed-calls";
import { startServer, type TestServer } from "../test/support/server";

// Its own server: 3,000 seeded calls over the last 20 hours must not show up in other specs.
let server: TestServer;
const CALLS = 3000;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  // One seeded tool name that is a real tool, so its page (with its call history) exists.
  const tool = await server.api("PUT", "/v1/tools/get_order", {
    description: "Looks an order up",
    request: { method: "GET", url: "https://api.example.com/orders/{{id}}" },
    parameters: "id | string | required | The order id",
  });
  expect(tool.status).toBe(201);
  const db = openDb(dbFile(server.dataDir));
  await seedCalls(db, { calls: CALLS, now: Date.now() - 60_000, spanMs: 20 * 3_600_000 });
  const now = Date.now();
  await insertApproval(db, {
    id: "apr_e2e",
    turnId: "seed_t3",
    sessionId: "seed_s0",
    callId: "call_30",
    identity: "e2e",
    tool: "refund_order",
    arguments: { id: 30 },
    createdAt: now - 300_000,
    expiresAt: now + 3_600_000,
  });
  await db.close();
});
test.afterAll(async () => server?.stop());

async function signIn(page: Page) {
  await page.goto(`${server.url}/login`);
  await new LoginPage(page).signIn(server.token);
  await expect(page).toHaveURL(`${server.url}/`);
}

test("the Overview shows the window at a glance, and a chart click opens the calls behind the bar", async ({
  page,
}) => {
  await signIn(page);
  const overview = new OverviewPage(page);
  await overview.goto(server.url, "24h");
  expect(await overview.stat("Tool calls")).toBe(CALLS);
  const blocked = Array.from({ length: CALLS }, (_, i) => i).filter((i) => i % 101 === 0).length;
  expect(await overview.stat("Blocked by egress")).toBe(blocked);
  await expect(page.getByTestId("recent-blocks").getByText("private-address").first()).toBeVisible();
  await expect(page.getByTestId("pending-approvals")).toContainText("refund_order");
  await expect(page.getByTestId("failing-tools").locator("tbody tr")).toHaveCount(SEED_TOOLS.length);
  for (const chart of ["turns-chart", "latency-chart", "tokens-chart"])
    await expect(overview.chart(chart).locator("[data-bar]").first()).toBeVisible();
  await screen(page, "overview-24h");
  await screenVariants(page, "overview-24h");

  // The last bar of the "ok" series: the calls of that half hour that went well.
  await overview.bars("calls-chart", "ok").last().click();
  await expect(page).toHaveURL(/\/calls\?outcome=ok&since=\d+&until=\d+/);
  const url = new URL(page.url());
  const since = Number(url.searchParams.get("since"));
  const until = Number(url.searchParams.get("until"));
  expect(until - since).toBe(1_800_000);
  await expect(overview.callRows().first()).toBeVisible();
  const rows = await overview.callRows().all();
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows.slice(0, 10)) {
    await expect(row).toContainText("ok");
    const started = Date.parse(`${(await row.locator("td").first().innerText()).replace(" ", "T")}Z`);
    expect(started).toBeGreaterThanOrEqual(since - 1000);
    expect(started).toBeLessThan(until);
  }
  await screen(page, "calls-from-chart");

  // Each row opens its call in the trace.
  await overview.callRows().first().locator("td").last().getByRole("link").click();
  await expect(page).toHaveURL(/\/sessions\/seed_s\d+\?turn=seed_t\d+&call=call_\d+/);
});

test("the charts are drawn on the server: the page's HTML holds every bar, as links, before any script runs", async ({
  page,
}) => {
  await signIn(page);
  const res = await page.request.get(`${server.url}/?window=24h`);
  expect(res.status()).toBe(200);
  const html = await res.text();
  const chart = (testId: string) => {
    const start = html.indexOf(`data-testid="${testId}"`);
    expect(start, `${testId} in the HTML`).toBeGreaterThan(-1);
    return html.slice(start, html.indexOf("</figure>", start));
  };
  // Every call of the window is in exactly one bar segment of the calls chart.
  const bars = [...chart("calls-chart").matchAll(/<a ([^>]*data-bar[^>]*)><title>([^<]*)<\/title>/g)];
  expect(bars.length).toBeGreaterThan(0);
  let total = 0;
  for (const [, attributes, title] of bars) {
    expect(attributes).toMatch(/href="\/calls\?outcome=(ok|error|blocked)&amp;since=\d+&amp;until=\d+"/);
    total += Number(/: ([\d,]+)$/.exec(title!)?.[1]?.replaceAll(",", ""));
  }
  expect(total).toBe(CALLS);
  for (const testId of ["turns-chart", "latency-chart", "tokens-chart"]) expect(chart(testId)).toContain("data-bar");

  // And they are what a reader sees without script.
  const noScript = await page.context().browser()!.newContext({ javaScriptEnabled: false });
  try {
    await noScript.addCookies(await page.context().cookies());
    const bare = await noScript.newPage();
    await bare.goto(`${server.url}/?window=24h`);
    await expect(new OverviewPage(bare).bars("calls-chart", "ok").first()).toBeVisible();
    const box = await bare.getByTestId("calls-chart").locator("svg").boundingBox();
    expect(box?.width).toBeGreaterThan(200);
    await screen(bare, "overview-without-script");
  } finally {
    await noScript.close();
  }
});

test("the latency chart opens a tool's calls, and the tool's page charts its own history", async ({ page }) => {
  await signIn(page);
  const overview = new OverviewPage(page);
  await overview.goto(server.url, "7d");
  await overview.bars("latency-chart", "p95").first().click();
  await expect(page).toHaveURL(/\/calls\?since=\d+&tool=\w+/);
  const tool = new URL(page.url()).searchParams.get("tool")!;
  expect(SEED_TOOLS).toContain(tool);
  await expect(overview.callRows().first()).toContainText(tool);
  await page.goto(`${server.url}/tools/get_order?window=24h`);
  await expect(page.getByTestId("tool-calls-chart").locator("[data-bar]").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Call history" })).toContainText(`${CALLS / SEED_TOOLS.length}`);
  await screen(page, "tool-call-history");
});

test("the calls list names a bad filter instead of failing", async ({ page }) => {
  await signIn(page);
  await page.goto(`${server.url}/calls?outcome=maybe&since=yesterday&tool=%3Cscript%3E`);
  const alert = page.getByRole("alert").filter({ hasText: /\S/ });
  await expect(alert).toContainText("outcome: expected one of ok, error, blocked");
  await expect(alert).toContainText("since: expected a whole number");
  await expect(alert).toContainText("tool: '<script>' is not a tool name");
});

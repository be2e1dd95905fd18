import { expect, test } from "@playwright/test";
import { LoginPage } from "./pages/login-page";
import { screen } from "./pages/studio";
import { ToolsPage } from "./pages/tools-page";
import { startServer, type TestServer } from "../test/support/server";

// Its own server, so 5,000 tools do not leak into the other specs' catalog.
let server: TestServer;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer({ env: { INSIKA_EGRESS_ALLOW_HTTP: "1" } });
  const tools = Array.from({ length: 5000 }, (_, i) => ({
    name: `bulk_tool_${String(i).padStart(4, "0")}`,
    description: `Bulk tool number ${i} for the scale test`,
    parameters: "id | string | required | The id",
    request: { method: "GET", url: `https://api${i % 7}.example.com/items/{{id}}` },
    group: `group_${i % 10}`,
    tags: i % 2 ? ["odd"] : ["even"],
  }));
  tools.push({ ...tools[0]!, name: "broken_on_purpose" });
  const res = await server.api("POST", "/v1/tools/manifest", { tools });
  expect(res.status).toBe(200);
  expect(res.body.created).toHaveLength(5001);
  // A stored tool that no longer validates (as after a rule change): dropped from the catalog.
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(`${server.dataDir}/insika.db`);
  db.prepare(
    "update tools set definition = json_set(definition, '$.request.url', 'ftp://x') where name = 'broken_on_purpose'",
  ).run();
  db.prepare("update settings set value = cast(value as integer) + 1 where key = 'catalog_version'").run();
  db.close();
});
test.afterAll(async () => server?.stop());

test("the tools panel stays fast with 5,000 tools: filter, search, and dropped tools shown with the reason", async ({
  page,
}) => {
  await page.goto(`${server.url}/login`);
  await new LoginPage(page).signIn(server.token);
  await expect(page).toHaveURL(`${server.url}/`);

  const started = Date.now();
  await page.goto(`${server.url}/tools`);
  const tools = new ToolsPage(page);
  // 5,001 stored tools, 2 shipped code tools and 5 system tools.
  await expect(tools.count()).toContainText("of 5008");
  const loadMs = Date.now() - started;
  expect(await page.locator('[role="listitem"]').count()).toBeLessThan(80);

  const t0 = Date.now();
  await tools.search("number 4321");
  await expect(tools.count()).toHaveText("1 of 5008");
  await expect(tools.row("bulk_tool_4321")).toBeVisible();
  const searchMs = Date.now() - t0;

  await tools.search("");
  await tools.filter("Group", "group_3");
  await tools.filter("Kind", "code");
  await expect(tools.count()).toHaveText("0 of 5008");
  await tools.filter("Kind", "");
  await tools.filter("Group", "");
  await tools.filter("Status", "dropped");
  await expect(tools.row("broken_on_purpose")).toContainText("Dropped: ");
  await expect(tools.row("broken_on_purpose")).toContainText("url must be http/https");
  await screen(page, "tools-5000-dropped");
  test.info().annotations.push({ type: "timing", description: `load ${loadMs} ms, search ${searchMs} ms` });
  expect(loadMs).toBeLessThan(5000);
  expect(searchMs).toBeLessThan(1500);
});

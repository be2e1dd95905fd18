import { expect, test } from "@playwright/test";
import { authHeaders, screen, signIn } from "./pages/studio";

test.beforeEach(async ({ page }) => signIn(page));

async function runTool(page: import("@playwright/test").Page, name: string, args: string) {
  await page.goto(`/tools/${name}?tab=try`);
  await page.getByLabel("Arguments (JSON, as the model would send them)").fill(args);
  await page.getByRole("button", { name: "Run the tool" }).click();
  return page.getByTestId("call-detail");
}

test("Try it runs the tool without a model and shows the call record", async ({ page }) => {
  const detail = await runTool(page, "search_catalog", '{"query":"lamp"}');
  await expect(detail).toHaveAttribute("data-verdict", "ok");
  await expect(detail).toContainText("HTTP 200");
  await expect(detail).toContainText("Desk lamp");
  await expect(detail).toContainText("GET http://127.0.0.1");
  await screen(page, "tool-try-it-ok");
});

test("a call blocked by egress is shown as blocked with the hint, never as a success", async ({ page, request }) => {
  const put = await request.put("/v1/tools/private_backend", {
    headers: authHeaders(),
    data: { description: "A backend on a private address", request: { method: "GET", url: "http://10.1.2.3/status" } },
  });
  expect(put.ok()).toBe(true);
  const detail = await runTool(page, "private_backend", "{}");
  await expect(detail).toHaveAttribute("data-verdict", "blocked");
  await expect(detail).toContainText("BLOCKED");
  await expect(detail).toContainText("never left Insika");
  await expect(detail).toContainText("To allow it:");
  await expect(detail).toContainText("INSIKA_EGRESS_HOSTS");
  await expect(detail).not.toContainText("Succeeded");
  await screen(page, "tool-try-it-blocked");
});

test("POST /v1/tools/:name/test answers the bare call record, and 404 for an unknown tool", async ({ request }) => {
  const ok = await request.post("/v1/tools/search_catalog/test", {
    headers: authHeaders(),
    data: { arguments: { query: "desk" }, ctx: { store_id: "demo-store" } },
  });
  expect(ok.status()).toBe(200);
  const record = await ok.json();
  expect(record).toMatchObject({ tool: "search_catalog", ok: true, status: 200, kind: "data" });
  expect(record.request.method).toBe("GET");

  const bad = await request.post("/v1/tools/search_catalog/test", {
    headers: authHeaders(),
    data: { arguments: { limit: 2 } },
  });
  expect(bad.status()).toBe(200);
  expect((await bad.json()).ok).toBe(false);

  const code = await request.post("/v1/tools/calculate/test", {
    headers: authHeaders(),
    data: { arguments: { a: 2, b: 3, operation: "add" } },
  });
  expect(code.status()).toBe(200);
  expect(await code.json()).toMatchObject({ kind: "code", ok: true, result: JSON.stringify({ result: 5 }) });

  expect(
    (await request.post("/v1/tools/no_such_tool/test", { headers: authHeaders(), data: { arguments: {} } })).status(),
  ).toBe(404);
  expect((await request.post("/v1/tools/search_catalog/test", { data: { arguments: {} } })).status()).toBe(401);
});

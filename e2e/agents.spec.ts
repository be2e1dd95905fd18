import { expect, test } from "@playwright/test";
import { AgentPage } from "./pages/agent-page";
import { authHeaders, screen, signIn } from "./pages/studio";

test.beforeEach(async ({ page }) => signIn(page));

test("create an agent, allow a tool in its matrix and see it offered to the model", async ({ page, request }) => {
  await page.goto("/agents/new");
  const agent = new AgentPage(page);
  await agent.field("Id").fill("e2e_shop");
  await agent.field("Name").fill("E2E shop");
  await agent.field("Instructions").fill("Answer from the catalog only.");
  await agent.field("Store id (ctx.store_id)").fill("demo-store");
  await page.getByRole("button", { name: "Create agent" }).click();
  await expect(page).toHaveURL(/\/agents\/e2e_shop\?tab=tools$/);

  await agent.allTools().uncheck();
  await expect(agent.offered()).toContainText("Nothing");
  await agent.box("Allow", "search_catalog").check();
  await expect(agent.offered()).toContainText("search_catalog");
  await expect(agent.exposure("search_catalog")).toHaveAttribute("data-exposure", "offered");
  await agent.box("Allow", "order_status").check();
  await agent.box("Defer", "order_status").check();
  await expect(agent.deferred()).toContainText("order_status");
  await agent.box("Deny", "calculate").check();
  await expect(agent.exposure("calculate")).toHaveAttribute("data-exposure", "denied");
  await agent.savePolicy();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await screen(page, "agent-tool-matrix");

  const exposure = await (await request.get("/v1/agents/e2e_shop/tools", { headers: authHeaders() })).json();
  expect(exposure.offered).toEqual(["search_catalog"]);
  expect(exposure.deferred).toEqual(["order_status"]);
  expect(exposure.denied).toEqual(["calculate"]);

  // The same exposure, set from the tool's own page.
  await page.goto("/tools/subscribe_to_learning_path?tab=agents");
  const row = page.locator('tr[data-agent="e2e_shop"]');
  await expect(row).toContainText("not allowed");
  await row.getByRole("combobox").selectOption("allow");
  await expect(row).toContainText("allowed by name");
  await expect(row).toContainText("offered");
  await screen(page, "tool-agents-exposure");
  const after = await (await request.get("/v1/agents/e2e_shop/tools", { headers: authHeaders() })).json();
  expect(after.offered).toEqual(["search_catalog", "subscribe_to_learning_path"]);
});

test("edit an agent's instructions and limits", async ({ page, request }) => {
  const put = await request.put("/v1/agents/e2e_limits", {
    headers: authHeaders(),
    data: { model: { provider: "demo", model: "demo" }, skills: ["kept-skill"] },
  });
  expect(put.ok()).toBe(true);
  const agent = new AgentPage(page);
  await agent.goto("e2e_limits");
  await agent.field("Instructions").fill("Be brief.");
  await agent.field("Tool concurrency").fill("4");
  await agent.field("Turn timeout (s)").fill("0");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator("[data-field-errors='agent-turn_timeout']")).toBeVisible();
  await agent.field("Turn timeout (s)").fill("120");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const stored = await (await request.get("/v1/agents/e2e_limits", { headers: authHeaders() })).json();
  expect(stored.instructions).toBe("Be brief.");
  expect(stored.limits).toMatchObject({ tool_concurrency: 4, turn_timeout: 120 });
  expect(stored.skills).toEqual(["kept-skill"]);
  await page.goto("/agents");
  await screen(page, "agents-list");
});

test("delete an agent from its page: it leaves the list, its session and trace stay", async ({ page, request }) => {
  const headers = authHeaders();
  expect(
    (
      await request.put("/v1/agents/e2e_gone", {
        headers,
        data: { name: "E2E gone", model: { provider: "demo", model: "demo" } },
      })
    ).ok(),
  ).toBe(true);
  const session = await (await request.post("/v1/sessions", { headers, data: { agent_id: "e2e_gone" } })).json();
  const turn = await (
    await request.post(`/v1/sessions/${session.id}/turns`, { headers, data: { message: "hello" } })
  ).json();
  expect(turn.status).toBe("completed");

  const agent = new AgentPage(page);
  await agent.goto("e2e_gone");
  await page.getByRole("button", { name: "Delete agent" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete agent e2e_gone" });
  await expect(confirm).toContainText("Its sessions and traces are kept");
  await screen(page, "agent-delete-confirm");
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.locator('[data-agent="e2e_gone"]')).toHaveCount(0);
  await screen(page, "agents-after-delete");

  expect((await request.get("/v1/agents/e2e_gone", { headers })).status()).toBe(404);
  const kept = await request.get(`/v1/sessions/${session.id}`, { headers });
  expect(kept.status()).toBe(200);
  expect((await kept.json()).turns.map((t: { status: string }) => t.status)).toEqual(["completed"]);
  await page.goto(`/sessions/${session.id}`);
  await expect(page.getByText("hello").first()).toBeVisible();
  await screen(page, "deleted-agent-session");
});

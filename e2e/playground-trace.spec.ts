import { expect, test } from "@playwright/test";
import { PlaygroundPage } from "./pages/playground-page";
import { authHeaders, screen, signIn } from "./pages/studio";
import { TracePage } from "./pages/trace-page";

test.beforeEach(async ({ page }) => signIn(page));

test("run a turn in the playground, see the call inline, and open its trace", async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.send("search_catalog query=lamp");
  await expect(playground.inlineCall("search_catalog")).toHaveAttribute("data-state", "OK");
  await expect(playground.lastTurn()).toHaveAttribute("data-status", "completed");
  await expect(playground.lastTurn()).toContainText("Desk lamp");
  await expect(page).toHaveURL(/session=ses_/);
  await screen(page, "playground-turn");

  await playground.lastTurn().getByRole("link", { name: "Open trace" }).click();
  await expect(page).toHaveURL(/\/sessions\/ses_[^?]+\?turn=turn_/);
  const trace = new TracePage(page);
  await expect(trace.waterfallRows()).toHaveCount(1);
  await expect(trace.waterfallRows().first()).toHaveAttribute("data-verdict", "ok");
  // Closed calls ship only their summary; opening one loads its record.
  await expect(trace.call("ok")).toContainText("Succeeded: HTTP 200");
  await expect(page.getByTestId("call-detail")).toHaveCount(0);
  await trace.toggleCall(0);
  await expect(trace.openCallDetail()).toContainText("Desk lamp");
  await trace.toggleCall(0);
  await expect(page.getByTestId("call-detail")).toHaveCount(0);
  await trace.waterfallRows().first().click();
  await expect(page).toHaveURL(/\?call=/);
  await expect(trace.openCallDetail()).toContainText("HTTP 200");
  await expect(trace.openCallDetail()).toContainText("GET http://127.0.0.1");
  await expect(trace.openCallDetail()).toContainText("Desk lamp");
  await screen(page, "trace-call-ok");

  await page.goto("/sessions");
  await expect(page.locator("tr[data-session]").first()).toContainText("search_catalog query=lamp");
  await screen(page, "sessions-list");
});

test("a call blocked by egress is shown as blocked, with the hint, inline and in the trace", async ({
  page,
  request,
}) => {
  const put = await request.put("/v1/tools/inventory_lookup", {
    headers: authHeaders(),
    data: {
      description: "Stock levels from the warehouse backend",
      request: { method: "GET", url: "http://10.20.30.40/stock" },
    },
  });
  expect(put.ok()).toBe(true);
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.send("inventory_lookup");
  await expect(playground.inlineCall("inventory_lookup")).toHaveAttribute("data-state", "BLOCKED");
  await expect(playground.inlineCall("inventory_lookup")).toContainText("destination blocked");
  await screen(page, "playground-blocked");

  await playground.inlineCall("inventory_lookup").getByRole("link", { name: "Open call" }).click();
  const trace = new TracePage(page);
  await expect(trace.call("blocked")).toHaveCount(1);
  await expect(trace.call("blocked").locator("summary")).toContainText("BLOCKED");
  await expect(trace.call("blocked").locator("summary")).not.toContainText("Succeeded");
  await expect(trace.waterfallRows().first()).toHaveAttribute("data-verdict", "blocked");
  const detail = trace.openCallDetail();
  await expect(detail).toContainText("Blocked by the egress guard");
  await expect(detail).toContainText("To allow it:");
  await expect(detail).toContainText("INSIKA_EGRESS_HOSTS");
  await expect(detail).toContainText("nothing was sent");
  await expect(detail).not.toContainText("Succeeded");
  await screen(page, "trace-call-blocked");
});

test("a turn halted by halt_when shows what it published", async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.send("quiet subscribe_to_learning_path path=sql-for-analysts email=e2e@example.com");
  await expect(playground.lastTurn()).toHaveAttribute("data-status", "halted");
  await expect(playground.lastTurn()).toContainText("You're subscribed to sql-for-analysts");
  await expect(playground.inlineCall("subscribe_to_learning_path")).toHaveAttribute("data-state", "HALTED");
  await playground.lastTurn().getByRole("link", { name: "Open trace" }).click();
  await expect(new TracePage(page).waterfallRows().first()).toHaveAttribute("data-verdict", "halted");
  await screen(page, "trace-halted");
});

import { expect, test } from "@playwright/test";
import { authHeaders, screen, screenVariants, signIn } from "./pages/studio";

test.beforeEach(async ({ page }) => signIn(page));

/**
 * The scripted model "delegate" (written by global-setup) calls spawn_subagent once: the demo
 * agent runs a turn in a session of its own. That turn's trace says it is a subagent's and
 * links back to the turn whose call started it, which links to it in turn.
 */
test("a subagent's turn and the turn that started it link to each other", async ({ page, request }) => {
  const agent = await request.put("/v1/agents/e2e_delegate", {
    headers: authHeaders(),
    data: { model: { provider: "scripted", model: "delegate" }, subagents: ["demo"] },
  });
  expect(agent.ok()).toBe(true);
  const session = (
    await (await request.post("/v1/sessions", { headers: authHeaders(), data: { agent_id: "e2e_delegate" } })).json()
  ).id as string;
  const turn = await (
    await request.post(`/v1/sessions/${session}/turns`, { headers: authHeaders(), data: { message: "delegate it" } })
  ).json();
  expect(turn).toMatchObject({ status: "completed", content: "Delegated to the demo agent." });
  const trace = await (await request.get(`/v1/sessions/${session}/trace`, { headers: authHeaders() })).json();
  const spawned = JSON.parse(trace.turns[0].calls[0].result) as { session_id: string; turn_id: string };

  // The child's trace: a subagent's turn, its parent named and linked.
  await page.goto(`/sessions/${spawned.session_id}`);
  const parent = page.getByTestId("trace-parent-turn");
  await expect(parent).toContainText(`started by a spawn call of turn ${turn.turn_id}`);
  await screen(page, "trace-subagent-turn");
  await screenVariants(page, "trace-subagent-turn");

  await parent.getByRole("link", { name: turn.turn_id }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${session}\\?turn=${turn.turn_id}`));
  const opened = page.locator(`#turn-${turn.turn_id}[open]`);
  await expect(opened).toContainText("Delegated to the demo agent.");
  // The parent is a client's turn: nothing to link back to, and it lists the turn it started.
  await expect(page.getByTestId("trace-parent-turn")).toHaveCount(0);
  const children = opened.getByTestId("trace-child-turns");
  await expect(children).toContainText("completed");
  await screen(page, "trace-subagent-parent");
  await children.getByRole("link", { name: spawned.turn_id }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${spawned.session_id}\\?turn=${spawned.turn_id}`));
  await expect(page.locator(`#turn-${spawned.turn_id}[open]`)).toContainText("The tool order_status returned");
});

import { expect, test, type APIRequestContext } from "@playwright/test";
import { ApprovalsPage } from "./pages/approvals-page";
import { PlaygroundPage } from "./pages/playground-page";
import { TracePage } from "./pages/trace-page";
import { authHeaders, screen, screenVariants, signIn } from "./pages/studio";

const AGENT = "e2e_approver";

test.beforeAll(async ({ request }) => {
  const put = await request.put(`/v1/agents/${AGENT}`, {
    headers: authHeaders(),
    data: {
      name: "Approver",
      model: { provider: "demo", model: "demo" },
      tools_allow: ["search_catalog"],
      approvals: ["search_catalog"],
      limits: { tool_concurrency: 2 },
      metadata: { store_id: "demo-store" },
    },
  });
  expect(put.ok()).toBe(true);
});

test.beforeEach(async ({ page }) => signIn(page));

/** Starts a turn over the API that stops to wait for an approval; returns its session and approval. */
async function waitingTurn(request: APIRequestContext, message: string) {
  const session = (
    await (await request.post("/v1/sessions", { headers: authHeaders(), data: { agent_id: AGENT } })).json()
  ).id as string;
  const turn = await (
    await request.post(`/v1/sessions/${session}/turns`, { headers: authHeaders(), data: { message } })
  ).json();
  expect(turn.status).toBe("waiting");
  const pending = (await (await request.get("/v1/approvals?status=pending", { headers: authHeaders() })).json())
    .approvals as { id: string; session_id: string }[];
  const approval = pending.find((a) => a.session_id === session);
  expect(approval).toBeTruthy();
  return { session, approvalId: approval!.id };
}

async function turnStatus(request: APIRequestContext, session: string) {
  return (await (await request.get(`/v1/sessions/${session}`, { headers: authHeaders() })).json()).turns.at(-1)
    .status as string;
}

test("approve a pending call in the playground and see the rest of the turn", async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(AGENT);
  await playground.send("search_catalog query=lamp");
  const card = playground.approvalCard("search_catalog");
  await expect(card).toHaveAttribute("data-state", "pending");
  await expect(card).toContainText('{"query":"lamp"}');
  await expect(playground.lastTurn()).toHaveAttribute("data-status", "waiting");
  await expect(playground.lastTurn()).toContainText(
    "Warning: approvals on search_catalog force serial execution; tool_concurrency 2 is ignored for this turn",
  );
  await screen(page, "approval-pending");
  await screenVariants(page, "approval-pending");

  await card.getByLabel("Note for search_catalog (optional)").fill("fine, read-only");
  await card.getByRole("button", { name: "Approve search_catalog" }).click();
  await expect(card).toHaveAttribute("data-state", "approved");
  await expect(playground.inlineCall("search_catalog")).toHaveAttribute("data-state", "OK");
  await expect(playground.lastTurn()).toHaveAttribute("data-status", "completed");
  await expect(playground.lastTurn()).toContainText("Desk lamp");
  await expect(playground.lastTurn().getByRole("link", { name: "Open trace" })).toBeVisible();
  // Still once after the resume that the decision started.
  await expect(playground.lastTurn().getByText(/^Warning: /)).toHaveCount(1);
  await screen(page, "approval-approved");

  // The trace shows the same warning, once, though the turn ran twice.
  await playground.lastTurn().getByRole("link", { name: "Open trace" }).click();
  const trace = new TracePage(page);
  await expect(trace.warnings()).toHaveText([
    "Warning: approvals on search_catalog force serial execution; tool_concurrency 2 is ignored for this turn",
  ]);
  await screen(page, "approval-trace-warning");
});

test("reject a pending call: the model is told, and the note is kept", async ({ page, request }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(AGENT);
  await playground.send("search_catalog query=chair");
  const card = playground.approvalCard("search_catalog");
  await card.getByLabel("Note for search_catalog (optional)").fill("not during the sale");
  await card.getByRole("button", { name: "Reject search_catalog" }).click();
  await expect(card).toHaveAttribute("data-state", "rejected");
  await expect(playground.inlineCall("search_catalog")).toHaveAttribute("data-state", "FAILED");
  await expect(playground.inlineCall("search_catalog")).toContainText("rejected by operator");
  await expect(playground.lastTurn()).toHaveAttribute("data-status", "completed");
  // The demo model repeats what the tool returned: the rejection.
  await expect(playground.lastTurn()).toContainText(
    'The tool search_catalog returned: {"error":"rejected by operator"}',
  );
  await screen(page, "approval-rejected");
  await screenVariants(page, "approval-rejected");

  const rejected = (await (await request.get("/v1/approvals?status=rejected", { headers: authHeaders() })).json())
    .approvals as { note: string; arguments: unknown }[];
  expect(
    rejected.some((a) => a.note === "not during the sale" && JSON.stringify(a.arguments) === '{"query":"chair"}'),
  ).toBe(true);
});

test("a decision made elsewhere reaches the open playground", async ({ page, request }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto(AGENT);
  await playground.send("search_catalog query=desk");
  await expect(playground.approvalCard("search_catalog")).toHaveAttribute("data-state", "pending");
  const pending = (await (await request.get("/v1/approvals?status=pending", { headers: authHeaders() })).json())
    .approvals as { id: string; arguments: { query?: string } }[];
  const approval = pending.find((a) => a.arguments.query === "desk")!;
  expect(
    (
      await request.post(`/v1/approvals/${approval.id}`, { headers: authHeaders(), data: { decision: "approved" } })
    ).ok(),
  ).toBe(true);
  await expect(playground.lastTurn()).toHaveAttribute("data-status", "completed", { timeout: 15_000 });
  await expect(playground.approvalCard("search_catalog")).toHaveAttribute("data-state", "approved");
});

test("the Approvals page lists pending calls and decides them", async ({ page, request }) => {
  const first = await waitingTurn(request, "search_catalog query=lamp");
  const second = await waitingTurn(request, "search_catalog query=mug");
  const approvals = new ApprovalsPage(page);
  await approvals.goto();
  const row = approvals.row(first.approvalId);
  await expect(row).toContainText("search_catalog");
  await expect(row).toContainText('"query": "lamp"');
  await expect(row).toContainText(/Asked \d+ s ago/);
  await expect(row).toContainText(/expires in (59 min|1 h)/);
  await expect(row.getByRole("link", { name: `Session ${first.session}` })).toHaveAttribute(
    "href",
    new RegExp(`/sessions/${first.session}\\?turn=`),
  );
  await expect(approvals.row(second.approvalId)).toBeVisible();
  await screen(page, "approvals-page");
  await screenVariants(page, "approvals-page");

  await row.getByRole("button", { name: "Approve search_catalog" }).click();
  await expect(row.getByRole("status")).toContainText("Approved");
  await expect.poll(() => turnStatus(request, first.session), { timeout: 15_000 }).toBe("completed");

  await page.reload();
  await expect(approvals.row(first.approvalId)).toHaveCount(0);
  const other = approvals.row(second.approvalId);
  await other.getByRole("button", { name: "Reject search_catalog" }).click();
  await expect.poll(() => turnStatus(request, second.session), { timeout: 15_000 }).toBe("completed");
  await page.reload();
  await expect(approvals.rows()).toHaveCount(0);
  await expect(page.getByText("Nothing is waiting for approval")).toBeVisible();
  await screen(page, "approvals-empty");

  await page.goto(`/sessions/${second.session}`);
  await expect(page.getByTestId("trace-call")).toContainText("search_catalog");
  await expect(page.locator('[data-testid="trace-turn"]').last()).toContainText("rejected by operator");
});

import { expect, test } from "@playwright/test";
import { ApprovalsPage } from "./pages/approvals-page";
import { KeysPage, createKeyViaApi, signInWith } from "./pages/keys-page";
import { LoginPage } from "./pages/login-page";
import { authHeaders, screen, signIn } from "./pages/studio";

const nav = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Main" }).getByRole("link");

test("the Keys page creates a key, shows its value once, and revokes it: the revoked key no longer signs in", async ({
  page,
  browser,
}) => {
  await signIn(page, "/keys");
  const keys = new KeysPage(page);
  await keys.goto();
  const value = await keys.create("e2e chat client", ["turns:run"]);
  await expect(page.getByText("this is the only time its value is shown")).toBeVisible();
  await expect(keys.row("e2e chat client")).toContainText("turns:run");
  await expect(keys.row("e2e chat client")).toContainText(value.slice(0, 9));
  await screen(page, "keys-created");

  // Once: a reload shows the prefix only, never the value.
  await page.reload();
  await expect(page.getByTestId("created-key-value")).toHaveCount(0);
  expect(await page.content()).not.toContain(value);

  // The new key signs in (a turns:run key lands on the playground).
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signInWith(otherPage, value);
  await expect(otherPage).toHaveURL(/\/playground$/);
  await other.close();

  await keys.row("e2e chat client").getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("alertdialog", { name: "Revoke key e2e chat client" })).toBeVisible();
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(keys.row("e2e chat client")).toHaveAttribute("data-status", "revoked");
  await screen(page, "keys-revoked");

  const after = await browser.newContext();
  const afterPage = await after.newPage();
  await signInWith(afterPage, value);
  await expect(new LoginPage(afterPage).error()).toContainText("not valid");
  await after.close();
});

test("a traces:read key gets a read-only Studio: editors disabled with the reason, no Keys, Audit or Playground", async ({
  page,
  request,
}) => {
  const key = await createKeyViaApi(request, { name: "e2e reader", scopes: ["traces:read"] });
  await signInWith(page, key);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(nav(page)).toHaveText([
    "Overview",
    "Tools",
    "MCP",
    "OpenAPI",
    "Agents",
    "Approvals",
    "Sessions",
    "Calls",
    "Doctor",
  ]);

  await page.goto("/agents/demo");
  const notice = page.getByTestId("read-only-notice");
  await expect(notice).toHaveText(
    "This key can read, not change: it has traces:read; changing agents needs agents:write.",
  );
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Delete agent" })).toHaveCount(0);
  await screen(page, "read-only-agent");

  await page.goto("/tools/search_catalog");
  await expect(page.getByTestId("read-only-notice")).toContainText("changing tools needs tools:write");
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
  await screen(page, "read-only-tool");

  await page.goto("/tools/search_catalog?tab=try");
  await expect(page.getByTestId("read-only-notice")).toContainText("trying a tool needs tools:write");
  await page.goto("/mcp");
  await expect(page.getByTestId("read-only-notice")).toContainText("importing an MCP server needs tools:write");
  await expect(page.locator("fieldset[data-read-only] button").first()).toBeDisabled();
  await page.goto("/tools");
  await expect(page.getByRole("link", { name: "New data tool" })).toHaveCount(0);

  // Pages it may not open say so (the check runs on the page itself, not only in the nav).
  await page.goto("/keys");
  await expect(page).toHaveURL(/\/no-access\?page=%2Fkeys$/);
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toContainText("The Keys page needs scope admin");
  await screen(page, "no-access");
  const actionsRefused = await request.get("/v1/keys", { headers: { authorization: `Bearer ${key}` } });
  expect(actionsRefused.status()).toBe(403);
});

test("a turns:run key sees only the playground, for its own agent", async ({ page, request }) => {
  const put = await request.put("/v1/agents/e2e_other", {
    headers: authHeaders(),
    data: { name: "E2E other agent", model: { provider: "demo", model: "demo" } },
  });
  expect(put.ok()).toBe(true);
  const key = await createKeyViaApi(request, { name: "e2e demo chat", scopes: ["turns:run"], agents: ["demo"] });
  await signInWith(page, key);
  await expect(page).toHaveURL(/\/playground$/);
  await expect(nav(page)).toHaveText(["Playground"]);
  const picker = page.getByLabel("Agent", { exact: true });
  await expect(picker.locator("option")).toHaveText(["Demo store assistant"]);

  await page.getByLabel("Message").fill("search_catalog query=lamp");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("list", { name: "Conversation" })).toContainText("search_catalog", { timeout: 30_000 });
  await screen(page, "turns-run-playground");

  // Another agent, another page: not reachable.
  await page.goto("/playground?agent=e2e_other");
  await expect(picker.locator("option")).toHaveText(["Demo store assistant"]);
  for (const path of ["/tools", "/agents/demo", "/sessions", "/keys", "/audit"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/playground$/);
  }
});

test("Studio writes are audited with the signed-in key and source studio; the Audit page filters them; history says who", async ({
  page,
  request,
}) => {
  const put = (description: string) =>
    request.put("/v1/tools/e2e_audited", {
      headers: authHeaders(),
      data: { name: "e2e_audited", description, request: { method: "GET", url: "https://api.example.com/x" } },
    });
  expect((await put("first")).ok()).toBe(true);
  expect((await put("second")).ok()).toBe(true);
  await signIn(page, "/tools/e2e_audited?tab=history");
  await expect(page.getByTestId("version-by").first()).toContainText("by bootstrap");
  await page.getByRole("button", { name: /^v1/ }).click();
  await page.getByRole("button", { name: "Restore v1" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Restored version 1" })).toBeVisible();

  const res = await request.get("/v1/audit?target=tool:e2e_audited&action=tool.restore", { headers: authHeaders() });
  const entries = (await res.json()).entries;
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ source: "studio", actor: { key_id: "key_bootstrap" } });

  await page.goto("/audit");
  await page.getByLabel("Target").fill("tool:e2e_audited");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/target=tool%3Ae2e_audited/);
  const rows = page.locator("tr[data-audit]");
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toHaveAttribute("data-action", "tool.restore");
  await expect(rows.first()).toContainText("studio");
  await expect(rows.first()).toContainText("key_bootstrap");
  await screen(page, "audit-filtered");
  await page.getByLabel("Action").selectOption("tool.put");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(rows).toHaveCount(2);
  await page.goto("/audit?since=not-a-day");
  await expect(page.getByRole("alert").filter({ hasText: "not valid" })).toBeVisible();
});

test("a key pinned to a tenant, admin too, opens neither Keys nor Audit and sees only its tenant's approvals", async ({
  page,
  request,
}) => {
  const put = await request.put("/v1/agents/e2e_tenant_approver", {
    headers: authHeaders(),
    data: {
      name: "Tenant approver",
      model: { provider: "demo", model: "demo" },
      tools_allow: ["search_catalog"],
      approvals: ["search_catalog"],
      metadata: { store_id: "demo-store" },
    },
  });
  expect(put.ok()).toBe(true);
  /** A turn of a session of `tenant` that waits on an approval; returns the approval id. */
  const waitingIn = async (tenant: string) => {
    const session = (
      await (
        await request.post("/v1/sessions", {
          headers: authHeaders(),
          data: { agent_id: "e2e_tenant_approver", tenant },
        })
      ).json()
    ).id as string;
    const turn = await request.post(`/v1/sessions/${session}/turns`, {
      headers: authHeaders(),
      data: { message: "search_catalog query=lamp" },
    });
    expect((await turn.json()).status).toBe("waiting");
    const pending = (await (await request.get("/v1/approvals?status=pending", { headers: authHeaders() })).json())
      .approvals as { id: string; session_id: string }[];
    return pending.find((a) => a.session_id === session)!.id;
  };
  const own = await waitingIn("e2e-acme");
  const other = await waitingIn("e2e-globex");

  const key = await createKeyViaApi(request, { name: "e2e acme admin", scopes: ["admin"], tenant: "e2e-acme" });
  await signInWith(page, key);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(nav(page)).not.toContainText(["Keys"]);
  await expect(nav(page)).not.toContainText(["Audit"]);
  await expect(nav(page)).toContainText(["Approvals"]);

  const approvals = new ApprovalsPage(page);
  await approvals.goto();
  await expect(approvals.row(own)).toBeVisible();
  await expect(approvals.row(other)).toHaveCount(0);
  await screen(page, "pinned-approvals");

  for (const path of ["/keys", "/audit"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(new RegExp(`/no-access\\?page=${encodeURIComponent(path)}$`));
    await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toContainText("pinned to tenant e2e-acme");
  }
  await screen(page, "pinned-no-access");

  // Leave nothing waiting for the other specs.
  for (const id of [own, other]) {
    const decided = await request.post(`/v1/approvals/${id}`, {
      headers: authHeaders(),
      data: { decision: "rejected" },
    });
    expect(decided.status()).toBe(200);
  }
});

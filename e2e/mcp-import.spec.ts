import { expect, test, type Page } from "@playwright/test";
import { McpPage } from "./pages/mcp-page";
import { authHeaders, screen, screenVariants, signIn } from "./pages/studio";

test.beforeEach(async ({ page }) => signIn(page));

/** Holds the form's server action back a moment, so the pending state can be seen (and screenshotted). */
async function slowActions(page: Page, ms: number) {
  await page.route("**/mcp", async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  });
}

test("import the example MCP server, see what was created, then re-import: unchanged", async ({ page, request }) => {
  const mcp = new McpPage(page);
  await mcp.goto();
  await expect(page.getByRole("link", { name: "MCP", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(mcp.emptyState()).toBeVisible();
  await screen(page, "mcp-empty");

  await slowActions(page, 1_000);
  await mcp.fill("everything", process.env.E2E_MCP_URL!, [["Authorization", "Bearer {{secret.mcp_token}}"]]);
  await mcp.submit();
  await expect(mcp.progress()).toContainText(`Connecting to ${process.env.E2E_MCP_URL}`);
  await expect(page.getByRole("button", { name: "Importing…" })).toBeDisabled();
  await screen(page, "mcp-importing");

  await expect(mcp.summary()).toContainText("Imported mcp:everything");
  await expect(mcp.progress()).toHaveCount(0);
  const created = Number(await mcp.stat("created").getAttribute("data-count"));
  expect(created).toBeGreaterThan(3);
  await expect(mcp.stat("unchanged")).toHaveAttribute("data-count", "0");
  await expect(mcp.stat("removed")).toHaveAttribute("data-count", "0");

  // What the API says matches the summary, and the secret stayed a reference.
  const tools = (
    (await (await request.get("/v1/tools", { headers: authHeaders() })).json()).tools as {
      name: string;
      group: string;
    }[]
  ).filter((t) => t.group === "mcp:everything");
  expect(tools).toHaveLength(created);
  const one = await (await request.get(`/v1/tools/${tools[0]!.name}`, { headers: authHeaders() })).json();
  expect(one.request.headers.Authorization).toBe("Bearer {{secret.mcp_token}}");

  // The summary's errors, if the server lists a tool Insika cannot take, each name the tool and the reason.
  const errors = Number(await mcp.stat("errors").getAttribute("data-count"));
  await expect(page.getByTestId("mcp-import-error")).toHaveCount(errors);

  const listed = mcp.instance("everything");
  await expect(listed).toContainText(`${created} tool(s)`);
  await expect(listed).toContainText(process.env.E2E_MCP_URL!);
  await expect(listed).toContainText("Authorization ({{secret.mcp_token}})");
  await expect(listed.getByTestId("mcp-auth-kind")).toHaveText("auth: headers");
  await screen(page, "mcp-created");

  await listed.getByRole("button", { name: "Re-import everything" }).click();
  await expect(mcp.progress()).toBeVisible();
  await expect(mcp.summary()).toBeVisible();
  await expect(mcp.stat("created")).toHaveAttribute("data-count", "0");
  await expect(mcp.stat("unchanged")).toHaveAttribute("data-count", String(created));
  await expect(mcp.stat("updated")).toHaveAttribute("data-count", "0");
  await expect(mcp.stat("removed")).toHaveAttribute("data-count", "0");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("everything");
  await screen(page, "mcp-reimport-unchanged");
  await screenVariants(page, "mcp-reimport-unchanged");

  // The same server under a second name: every tool name is taken by mcp:everything, so each is an error naming the tool and why.
  await page.getByLabel("Name", { exact: true }).fill("twin");
  await mcp.submit();
  await expect(mcp.summary()).toContainText("No tool was imported into mcp:twin");
  await expect(mcp.stat("created")).toHaveAttribute("data-count", "0");
  await expect(mcp.stat("errors")).toHaveAttribute("data-count", String(created));
  for (const { name } of tools) {
    const row = page
      .getByTestId("mcp-import-error")
      .filter({ has: page.locator("span.font-mono", { hasText: new RegExp(`^${name}$`) }) });
    await expect(row).toContainText(`'${name}' is already a tool of group 'mcp:everything'; it was not overwritten`);
  }
  await expect(mcp.instance("twin")).toHaveCount(0);
  await screen(page, "mcp-import-errors");
});

test("a server the egress guard refuses is explained with the rule and the hint, and nothing is written", async ({
  page,
  request,
}) => {
  const mcp = new McpPage(page);
  await mcp.goto();
  // Port 9 on loopback is not in the e2e server's INSIKA_EGRESS_HOSTS: refused before anything is sent.
  await mcp.fill("elsewhere", "http://127.0.0.1:9/mcp");
  await mcp.submit();
  const failure = mcp.failure();
  await expect(failure).toHaveAttribute("data-code", "egress_blocked");
  await expect(failure).toContainText("The egress guard refused this server: nothing was sent, nothing was written");
  await expect(failure).toContainText("Rule:");
  await expect(failure).toContainText("To allow it:");
  await expect(failure).toContainText("INSIKA_EGRESS_HOSTS");
  await expect(failure).not.toContainText("destination blocked:");
  await expect(mcp.summary()).toHaveCount(0);
  await screen(page, "mcp-egress-blocked");
  await screenVariants(page, "mcp-egress-blocked");
  const tools = (await (await request.get("/v1/tools", { headers: authHeaders() })).json()).tools as {
    group: string;
  }[];
  expect(tools.some((t) => t.group === "mcp:elsewhere")).toBe(false);
  await expect(mcp.instance("elsewhere")).toHaveCount(0);
});

test("bad input and a server that is not MCP are refused in plain words", async ({ page, baseURL }) => {
  const mcp = new McpPage(page);
  await mcp.goto();
  await mcp.fill("files", "ftp://127.0.0.1/mcp");
  await mcp.submit();
  await expect(mcp.failure()).toHaveAttribute("data-code", "validation_failed");
  await expect(page.locator('[data-field-errors="mcp-url"]')).toContainText("url must be http/https");

  await mcp.fill("Bad Name", `${baseURL}/mcp`);
  await mcp.submit();
  await expect(page.locator('[data-field-errors="mcp-name"]')).toContainText("a-z, 0-9, _ and -");
  await screen(page, "mcp-validation");

  // An allowed host that does not speak MCP (this server's own Studio page).
  await page.getByLabel("Name", { exact: true }).fill("not_mcp");
  await mcp.submit();
  await expect(mcp.failure()).toHaveAttribute("data-code", "upstream_failed");
  await expect(mcp.failure()).toContainText("could not be reached or read");
  await screen(page, "mcp-upstream-failed");
});

import { expect, test } from "@playwright/test";
import { ToolEditorPage } from "./pages/tool-editor-page";
import { ToolsPage } from "./pages/tools-page";
import { authHeaders, screen, signIn } from "./pages/studio";

const BACKEND = `http://127.0.0.1:${process.env.E2E_PORT ?? 3417}/demo-backend`;

test.beforeEach(async ({ page }) => signIn(page));

test("create a tool in flat sugar, switch to JSON Schema, save, and find it in the catalog", async ({
  page,
  request,
}) => {
  const editor = new ToolEditorPage(page);
  await editor.gotoNew();
  await editor.field("Name").fill("find_lamps");
  await editor.field("Description").fill("Find lamps in the demo catalog");
  await editor.field("Group").fill("catalog");
  await editor.field("Tags (comma-separated)").fill("e2e, lighting");
  await editor
    .parametersText()
    .fill("query | string | required | Words to look for\nlimit | integer | optional | How many");
  await editor.field("URL").fill(`${BACKEND}/catalog`);
  await editor.field("Query").fill("q: {{query}}\nlimit: {{limit}}");
  await expect(editor.egressVerdict()).toHaveAttribute("data-verdict", "allowed");

  await editor.switchTo("JSON Schema");
  await expect(editor.monaco().locator(".view-lines")).toContainText('"query"', { timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Flat form" })).toBeEnabled();
  await screen(page, "tool-new-json-schema");

  await editor.save();
  await expect(page).toHaveURL(/\/tools\/find_lamps\?saved=1$/);
  const stored = await (await request.get("/v1/tools/find_lamps", { headers: authHeaders() })).json();
  expect(stored.parameters).toEqual({
    type: "object",
    properties: {
      query: { type: "string", description: "Words to look for" },
      limit: { type: "integer", description: "How many" },
    },
    required: ["query"],
  });
  expect(stored.tags).toEqual(["e2e", "lighting"]);

  const tools = new ToolsPage(page);
  await tools.goto();
  await tools.search("lamps");
  await expect(tools.row("find_lamps")).toContainText("data");
  await expect(tools.row("find_lamps")).toContainText("catalog");
  await screen(page, "tools-catalog-search");
});

test("a bad schema shows the validator's error at the Parameters field and saves nothing", async ({
  page,
  request,
}) => {
  const editor = new ToolEditorPage(page);
  await editor.gotoNew();
  await editor.field("Name").fill("bad_schema_tool");
  await editor.field("Description").fill("Never saved");
  await editor.field("URL").fill(`${BACKEND}/catalog`);

  await editor.parametersText().fill("ids | array | required | Which ones");
  await expect(editor.errorsAt("tool-parameters")).toContainText("'array' needs an item type");

  await editor.parametersText().fill("ids | array:string | required | Which ones");
  await expect(editor.errorsAt("tool-parameters")).toHaveCount(0);
  await editor.switchTo("JSON Schema");
  await editor.typeInMonaco('{"type":"object","properties":{"ids":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}');
  await expect(editor.errorsAt("tool-parameters")).toContainText("oneOf");
  await expect(page.getByRole("button", { name: "Flat form" })).toBeDisabled();

  await editor.save();
  await expect(editor.errorsAt("tool-parameters")).toBeVisible();
  await screen(page, "tool-bad-schema");
  await page.waitForTimeout(500);
  expect((await request.get("/v1/tools/bad_schema_tool", { headers: authHeaders() })).status()).toBe(404);
});

test("editing a tool keeps its say, tags and every stored field the editor does not render", async ({
  page,
  request,
}) => {
  const put = await request.put("/v1/tools/mcp_style_tool", {
    headers: authHeaders(),
    data: {
      description: "A tool with fields the form does not show",
      parameters: "a | integer | required | A number",
      request: { method: "POST", url: `${BACKEND}/subscribe`, protocol: "mcp", mcp_tool: "get-sum" },
      halt_when: { json_path: "tool_result", equals: ["DONE"], say: { text: "CALL_SUPPORT" } },
      group: "mcp:everything",
      tags: ["kept", "also-kept"],
    },
  });
  expect(put.status()).toBe(201);

  const editor = new ToolEditorPage(page);
  await editor.goto("mcp_style_tool");
  await expect(editor.field("Tags (comma-separated)")).toHaveValue("kept, also-kept");
  await expect(editor.field("Say text")).toHaveValue("CALL_SUPPORT");
  await editor.field("Description").fill("Edited in the Studio");
  await editor.save();
  await expect(page.getByRole("status").filter({ hasText: "Saved version 2" })).toBeVisible();

  const after = await (await request.get("/v1/tools/mcp_style_tool", { headers: authHeaders() })).json();
  expect(after.description).toBe("Edited in the Studio");
  expect(after.tags).toEqual(["kept", "also-kept"]);
  expect(after.halt_when).toEqual({ json_path: "tool_result", equals: ["DONE"], say: { text: "CALL_SUPPORT" } });
  expect(after.request.protocol).toBe("mcp");
  expect(after.request.mcp_tool).toBe("get-sum");
  expect(after.group).toBe("mcp:everything");

  // The seeded tool whose say is a json_path: the same round trip through the form.
  await editor.goto("subscribe_to_learning_path");
  await expect(editor.field("Say JSON path")).toHaveValue("tool_result.message");
  await expect(editor.field("Tags (comma-separated)")).toHaveValue("demo, halts");
  await screen(page, "tool-edit-halt-say");
  await editor.field("Timeout (s)").fill("20");
  await editor.save();
  await expect(page.getByRole("status").filter({ hasText: "Saved version" })).toBeVisible();
  const seeded = await (await request.get("/v1/tools/subscribe_to_learning_path", { headers: authHeaders() })).json();
  expect(seeded.timeout).toBe(20);
  expect(seeded.halt_when.say).toEqual({ json_path: "tool_result.message" });
  expect(seeded.tags).toEqual(["demo", "halts"]);

  await editor.goto("subscribe_to_learning_path", "history");
  await expect(page.getByTestId("version-diff")).toContainText('+   "timeout": 20');
  await expect(page.getByTestId("version-diff")).toContainText("unchanged lines");
  await screen(page, "tool-history-diff");
  await page.getByRole("button", { name: /^v1/ }).click();
  await page.getByRole("button", { name: "Restore v1" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Restored version 1 as version 3" })).toBeVisible();
  const restored = await (await request.get("/v1/tools/subscribe_to_learning_path", { headers: authHeaders() })).json();
  expect(restored.timeout).toBe(30);
  expect(restored.version).toBe(3);
});

test("the URL field shows the egress verdict as you type, with the setting that would widen it", async ({ page }) => {
  const editor = new ToolEditorPage(page);
  await editor.gotoNew();
  await editor.field("URL").fill("http://10.1.2.3/orders");
  await expect(editor.egressVerdict()).toHaveAttribute("data-verdict", "blocked");
  await expect(editor.egressVerdict()).toContainText("INSIKA_EGRESS_HOSTS");
  await screen(page, "tool-url-blocked");
  await editor.field("URL").fill("http://169.254.169.254/latest");
  await expect(editor.egressVerdict()).toContainText("metadata");
  await editor.field("URL").fill(`${BACKEND}/orders/{{order_id}}`);
  await expect(editor.egressVerdict()).toHaveAttribute("data-verdict", "allowed");
});

test("the Tools panel lists the system tools as read-only code tools, with when each is offered, and their pages render", async ({
  page,
}) => {
  const tools = new ToolsPage(page);
  await tools.goto();
  await tools.filter("Kind", "code");
  for (const name of ["tool_search", "load_skill", "remember", "spawn_subagent", "spawn_subagents"]) {
    await expect(tools.row(name)).toContainText("code");
    await expect(tools.row(name)).toContainText("System tool, offered when");
  }
  await expect(tools.row("load_skill")).toContainText("when the agent lists skills");
  await screen(page, "tools-system-tools");

  await tools.row("load_skill").getByRole("link").click();
  await expect(page).toHaveURL(/\/tools\/load_skill$/);
  await expect(page.getByText("system", { exact: true })).toBeVisible();
  await expect(page.getByTestId("offered-when")).toHaveText(/when the agent lists skills/);
  await expect(page.getByRole("link", { name: "Try it" })).toHaveCount(0);
  await screen(page, "tool-system-load-skill");
  await page.getByRole("navigation", { name: "Tool sections" }).getByRole("link", { name: "Agents" }).click();
  await expect(page.locator("[data-agent]").first()).toBeVisible();
  await screen(page, "tool-system-load-skill-agents");
});

test("a literal credential in a header is refused at the Headers field as you type, pointing to {{secret.*}}", async ({
  page,
  request,
}) => {
  const editor = new ToolEditorPage(page);
  await editor.gotoNew();
  await editor.field("Name").fill("literal_header_tool");
  await editor.field("Description").fill("Never saved");
  await editor.field("URL").fill(`${BACKEND}/catalog`);
  await editor.field("Headers").fill("Authorization: Bearer abc123");
  await expect(editor.errorsAt("tool-headers")).toContainText("'Authorization' carries a credential");
  await expect(editor.errorsAt("tool-headers")).toContainText("{{secret.api_token}}");
  await screen(page, "tool-literal-credential");
  await editor.save();
  await page.waitForTimeout(500);
  expect((await request.get("/v1/tools/literal_header_tool", { headers: authHeaders() })).status()).toBe(404);
});

import { expect, test } from "@playwright/test";
import { authHeaders, screen, signIn } from "./pages/studio";

test.beforeEach(async ({ page }) => signIn(page));

test("the agent page shows the agent's MCP URL and a client config that an MCP client takes", async ({
  page,
  request,
  baseURL,
}) => {
  const put = await request.put("/v1/agents/e2e_mcp", {
    headers: authHeaders(),
    data: { name: "MCP gateway", model: { provider: "demo", model: "demo" } },
  });
  expect(put.status()).toBeLessThan(300);
  await page.goto("/agents/e2e_mcp");
  const endpoint = page.getByTestId("agent-mcp-endpoint");
  const url = `${baseURL}/v1/agents/e2e_mcp/mcp`;
  await expect(endpoint.getByTestId("agent-mcp-url")).toHaveText(url);
  await endpoint.getByText("Client config", { exact: true }).click();
  const config = JSON.parse((await endpoint.getByTestId("agent-mcp-config").textContent()) ?? "");
  expect(config.mcpServers.e2e_mcp).toMatchObject({ type: "http", url });
  await screen(page, "agent-mcp-endpoint");

  // The URL shown is the endpoint: an initialize with a key answers as the agent.
  const init = await request.post(url, {
    headers: { ...authHeaders(), accept: "application/json, text/event-stream", "content-type": "application/json" },
    data: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
    },
  });
  expect(init.status()).toBe(200);
  expect(await init.text()).toContain('"title":"MCP gateway"');
});

test("a tools/call over MCP shows in the Studio's trace like any other call", async ({ page, request, baseURL }) => {
  const put = await request.put("/v1/agents/e2e_mcp_calc", {
    headers: authHeaders(),
    data: { name: "MCP calc", model: { provider: "demo", model: "demo" }, tools_allow: ["calculate"] },
  });
  expect(put.status()).toBeLessThan(300);
  const url = `${baseURL}/v1/agents/e2e_mcp_calc/mcp`;
  const headers = {
    ...authHeaders(),
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
  };
  const init = await request.post(url, {
    headers,
    data: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
    },
  });
  const sessionId = init.headers()["mcp-session-id"]!;
  expect(sessionId).toMatch(/^mcp_/);
  const session = { ...headers, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  await request.post(url, { headers: session, data: { jsonrpc: "2.0", method: "notifications/initialized" } });
  const call = await request.post(url, {
    headers: session,
    data: {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "calculate", arguments: { a: 6, b: 7, operation: "multiply" } },
    },
  });
  expect(await call.text()).toContain("42");

  await page.goto(`/sessions/${sessionId}`);
  const turn = page.getByTestId("trace-turn");
  await expect(turn).toHaveCount(1);
  await expect(turn).toContainText("MCP tools/call calculate");
  await expect(page.getByTestId("trace-call").first()).toContainText("calculate");
  await screen(page, "agent-mcp-trace");
});

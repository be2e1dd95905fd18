/** The client config an MCP client (Claude Desktop, Cursor, the Inspector...) takes for an agent. Pure: the Studio's client code imports it. */
export function mcpClientConfig(agentId: string, url: string): string {
  return JSON.stringify(
    { mcpServers: { [agentId]: { type: "http", url, headers: { Authorization: "Bearer <a key with turns:run>" } } } },
    null,
    2,
  );
}

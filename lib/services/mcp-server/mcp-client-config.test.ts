import { describe, expect, it } from "vitest";
import { mcpClientConfig } from "./mcp-client-config";

describe("mcpClientConfig", () => {
  it("is an mcpServers entry for the agent's URL, with a placeholder for the key (never a real one)", () => {
    const config = JSON.parse(mcpClientConfig("support-bot", "https://insika.example/v1/agents/support-bot/mcp"));
    expect(config).toEqual({
      mcpServers: {
        "support-bot": {
          type: "http",
          url: "https://insika.example/v1/agents/support-bot/mcp",
          headers: { Authorization: "Bearer <a key with turns:run>" },
        },
      },
    });
  });
});

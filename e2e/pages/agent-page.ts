import type { Page } from "@playwright/test";

/** An agent's page: settings form and the tool matrix. */
export class AgentPage {
  constructor(private readonly page: Page) {}

  goto(id: string, tab: "settings" | "tools" = "settings") {
    return this.page.goto(`/agents/${id}?tab=${tab}`);
  }

  field(label: string) {
    return this.page.getByLabel(label, { exact: true });
  }

  allTools() {
    return this.page.getByLabel(/^All tools \(no allowlist\)/);
  }

  box(column: "Allow" | "Deny" | "Defer" | "Approval for", tool: string) {
    return this.page.getByLabel(`${column} ${tool}`, { exact: true });
  }

  exposure(tool: string) {
    return this.page.locator(`[role="row"][data-tool="${tool}"] [data-exposure]`);
  }

  offered() {
    return this.page.getByTestId("offered-list");
  }

  deferred() {
    return this.page.getByTestId("deferred-list");
  }

  savePolicy() {
    return this.page.getByRole("button", { name: "Save tool policy" }).click();
  }
}

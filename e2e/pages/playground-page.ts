import type { Page } from "@playwright/test";

/** The playground: send messages, read the streamed turns. */
export class PlaygroundPage {
  constructor(private readonly page: Page) {}

  goto(agent = "demo") {
    return this.page.goto(`/playground?agent=${agent}`);
  }

  async send(message: string) {
    await this.page.getByLabel("Message", { exact: true }).fill(message);
    await this.page.keyboard.press("Enter");
  }

  lastTurn() {
    return this.page.getByTestId("playground-turn").last();
  }

  approvalCard(tool: string) {
    return this.lastTurn().locator(`[data-testid="approval-card"]`).filter({ hasText: tool });
  }

  inlineCall(tool: string) {
    return this.lastTurn().locator(`[data-testid="inline-call"][data-tool="${tool}"]`);
  }
}

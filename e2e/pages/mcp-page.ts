import type { Page } from "@playwright/test";

/** The MCP page: the import form, its outcome, and the imported instances. */
export class McpPage {
  constructor(private readonly page: Page) {}

  goto() {
    return this.page.goto("/mcp");
  }

  async fill(name: string, url: string, headers: [string, string][] = []) {
    await this.page.getByLabel("Name", { exact: true }).fill(name);
    await this.page.getByLabel("URL", { exact: true }).fill(url);
    for (const [i, [key, value]] of headers.entries()) {
      await this.page.getByRole("button", { name: "Add header" }).click();
      await this.page.getByLabel(`Header ${i + 1} name`).fill(key);
      await this.page.getByLabel(`Header ${i + 1} value`).fill(value);
    }
  }

  submit() {
    return this.page.getByRole("button", { name: /^(Import tools|Importing…)$/ }).click();
  }

  progress() {
    return this.page.getByTestId("mcp-progress");
  }

  summary() {
    return this.page.getByTestId("mcp-summary");
  }

  /** A summary count cell: its data-count is the number shown. */
  stat(key: "created" | "updated" | "unchanged" | "removed" | "renamed" | "errors") {
    return this.summary().locator(`[data-stat="${key}"]`);
  }

  failure() {
    return this.page.getByTestId("mcp-failure");
  }

  instance(name: string) {
    return this.page.locator(`[data-instance="${name}"]`);
  }

  emptyState() {
    return this.page.getByText("No MCP server imported yet");
  }
}

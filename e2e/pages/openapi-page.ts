import type { Page } from "@playwright/test";

/** The OpenAPI page: the import form, its outcome, and the imported documents. */
export class OpenApiPage {
  constructor(private readonly page: Page) {}

  goto() {
    return this.page.goto("/openapi");
  }

  async pasteDocument(name: string, document: string, server?: string) {
    await this.page.getByLabel("Name", { exact: true }).fill(name);
    await this.page.getByLabel("Paste the document").check();
    await this.page.getByLabel("Document (JSON or YAML)").fill(document);
    if (server) await this.page.getByLabel("Server (optional)").fill(server);
  }

  submit() {
    return this.page.getByRole("button", { name: /^(Import operations|Importing…)$/ }).click();
  }

  summary() {
    return this.page.getByTestId("openapi-summary");
  }

  stat(key: "created" | "updated" | "unchanged" | "removed" | "errors") {
    return this.summary().locator(`[data-stat="${key}"]`);
  }

  failure() {
    return this.page.getByTestId("openapi-failure");
  }

  imports() {
    return this.page.getByTestId("openapi-imports");
  }
}

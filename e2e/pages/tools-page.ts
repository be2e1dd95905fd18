import type { Page } from "@playwright/test";

/** The Tools panel: the catalog list with search and filters. */
export class ToolsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/tools");
  }

  search(text: string) {
    return this.page.getByRole("searchbox", { name: "Search tools" }).fill(text);
  }

  filter(label: "Kind" | "Status" | "Group", value: string) {
    return this.page.getByLabel(label, { exact: true }).selectOption(value);
  }

  row(name: string) {
    return this.page.locator(`[data-tool="${name}"]`);
  }

  count() {
    return this.page.getByTestId("catalog-count");
  }
}

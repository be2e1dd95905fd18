import type { Page } from "@playwright/test";

/** The data tool editor (new tool, or a tool's Definition tab). */
export class ToolEditorPage {
  constructor(private readonly page: Page) {}

  gotoNew() {
    return this.page.goto("/tools/new");
  }

  goto(name: string, tab = "definition") {
    return this.page.goto(`/tools/${name}?tab=${tab}`);
  }

  field(label: string) {
    return this.page.getByLabel(label, { exact: true });
  }

  parametersText() {
    return this.page.locator("textarea#tool-parameters");
  }

  monaco() {
    return this.page.getByTestId("tool-parameters-monaco");
  }

  switchTo(format: "Flat form" | "JSON Schema") {
    return this.page.getByRole("button", { name: format, exact: true }).click();
  }

  /** Replaces the Monaco editor's whole text by typing (auto-closing is undone by select-all first). */
  async typeInMonaco(text: string) {
    await this.monaco().locator(".view-lines").click();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.press("Delete");
    await this.page.keyboard.insertText(text);
  }

  errorsAt(fieldId: string) {
    return this.page.locator(`[data-field-errors="${fieldId}"]`);
  }

  egressVerdict() {
    return this.page.getByTestId("egress-verdict");
  }

  save() {
    return this.page.getByRole("button", { name: /^(Create tool|Save)$/ }).click();
  }
}

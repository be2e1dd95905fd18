import type { Page } from "@playwright/test";

/** A session's trace: turns, the waterfall, call records. */
export class TracePage {
  constructor(private readonly page: Page) {}

  waterfallRows() {
    return this.page.getByTestId("waterfall-row");
  }

  call(verdict?: string) {
    return this.page.locator(`[data-testid="trace-call"]${verdict ? `[data-verdict="${verdict}"]` : ""}`);
  }

  openCallDetail() {
    return this.page.locator('[data-testid="trace-call"][open] [data-testid="call-detail"]');
  }
}

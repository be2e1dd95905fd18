import type { Page } from "@playwright/test";

/** A session's trace: turns, the waterfall, call summaries (the open call's record in full). */
export class TracePage {
  constructor(private readonly page: Page) {}

  waterfallRows() {
    return this.page.getByTestId("waterfall-row");
  }

  call(verdict?: string) {
    return this.page.locator(`[data-testid="trace-call"]${verdict ? `[data-verdict="${verdict}"]` : ""}`);
  }

  /** Opens (or closes) a call's one-line summary; an opened call loads its record on demand. */
  async toggleCall(index = 0) {
    await this.call().nth(index).locator("summary").click();
  }

  /** The warnings a turn's trace shows (e.g. approvals forcing serial execution). */
  warnings() {
    return this.page.getByTestId("trace-warning");
  }

  openCallDetail() {
    return this.page.locator('[data-testid="trace-call"][open] [data-testid="call-detail"]');
  }
}

import { expect, type Locator, type Page } from "@playwright/test";

/** The Studio's Overview (/) and the Calls list it links into. */
export class OverviewPage {
  constructor(private readonly page: Page) {}

  async goto(base: string, window: "1h" | "24h" | "7d" = "24h") {
    await this.page.goto(`${base}/?window=${window}`);
    await expect(this.chart("calls-chart").locator("[data-bar]").first()).toBeVisible();
  }

  chart(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  /** The number a stat box shows, e.g. "Tool calls" (as rendered, before formatting). */
  async stat(label: string): Promise<number> {
    const box = this.page.locator("dl > div").filter({ has: this.page.locator("dt", { hasText: label }) });
    return Number(await box.locator("[data-stat-value]").getAttribute("data-stat-value"));
  }

  /** The bars (links) of one series of a chart, by its key ("ok", "p95"...), in data order. */
  bars(testId: string, series: string): Locator {
    // A time chart marks its series' group, a category chart each bar.
    const key = `[data-series="${series}"]`;
    return this.chart(testId).locator(`${key} [data-bar], [data-bar]${key}`);
  }

  callRows(): Locator {
    return this.page.getByTestId("calls-table").locator("tbody tr");
  }
}

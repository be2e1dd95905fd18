import type { Page } from "@playwright/test";

/** The Approvals page: pending approvals with Approve / Reject. */
export class ApprovalsPage {
  constructor(private readonly page: Page) {}

  goto() {
    return this.page.goto("/approvals");
  }

  rows() {
    return this.page.locator("[data-approval]");
  }

  row(id: string) {
    return this.page.locator(`[data-approval="${id}"]`);
  }
}

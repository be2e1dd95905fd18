import type { Page } from "@playwright/test";

/** The Studio's sign-in page. */
export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/login");
  }

  async signIn(token: string) {
    await this.page.getByLabel("API token").fill(token);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  /** The sign-in error (not Next's empty route announcer, which also has role="alert"). */
  error() {
    return this.page.getByRole("alert").filter({ hasText: /\S/ });
  }
}

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

  error() {
    return this.page.getByRole("alert");
  }
}

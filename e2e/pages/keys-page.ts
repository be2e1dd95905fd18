import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { authHeaders } from "./studio";
import { LoginPage } from "./login-page";

/** The Studio's Keys page (/keys). */
export class KeysPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/keys");
    await expect(this.page.getByRole("heading", { name: "API keys" })).toBeVisible();
  }

  /** Creates a key from the form; returns its value as shown (once). */
  async create(name: string, scopes: string[]): Promise<string> {
    await this.page.getByLabel("Name", { exact: true }).fill(name);
    for (const box of await this.page.getByRole("checkbox").all()) {
      const scope = await box.getAttribute("value");
      if (scopes.includes(scope ?? "") !== (await box.isChecked())) await box.click();
    }
    await this.page.getByRole("button", { name: "Create key" }).click();
    const value = this.page.getByTestId("created-key-value");
    await expect(value).toHaveText(/^insk_/);
    return (await value.textContent())!;
  }

  row(name: string) {
    return this.page.locator(`tr[data-key-name="${name}"]`);
  }
}

/** Creates a key through the API (as the bootstrap admin key); returns its value. */
export async function createKeyViaApi(request: APIRequestContext, body: Record<string, unknown>): Promise<string> {
  const res = await request.post("/v1/keys", { headers: authHeaders(), data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).key as string;
}

/** Signs in with a given key value (a fresh page: no session yet). */
export async function signInWith(page: Page, key: string) {
  await page.goto("/login");
  await new LoginPage(page).signIn(key);
}

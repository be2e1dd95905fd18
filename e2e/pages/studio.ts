import { expect, type Page } from "@playwright/test";
import { LoginPage } from "./login-page";

/** Signs in with the test server's token (each test starts with a fresh browser context). */
export async function signIn(page: Page, path = "/") {
  await page.goto("/login");
  await new LoginPage(page).signIn(process.env.E2E_TOKEN!);
  await expect(page).toHaveURL(/\/$/);
  if (path !== "/") await page.goto(path);
}

/** Saves a full-page screenshot under test-results/screens/ (looked at by a person, not compared). */
export async function screen(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

/** The token for direct /v1 calls from a spec. */
export const authHeaders = () => ({ authorization: `Bearer ${process.env.E2E_TOKEN}` });

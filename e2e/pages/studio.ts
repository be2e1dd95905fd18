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
  // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

/** The token for direct /v1 calls from a spec. */
export const authHeaders = () => ({ authorization: `Bearer ${process.env.E2E_TOKEN}` });

/**
 * Screenshots of the page as it is now (client state kept: no reload) in dark mode, and on a
 * phone-sized screen, where it must not overflow horizontally. Restores light desktop after.
 */
export async function screenVariants(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: "dark" });
  await screen(page, `dark-${name}`);
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  // Polled: a client component that measures itself redraws for the new width only once its
  // ResizeObserver fires (seen late on a busy machine); an overflow that lasts fails after the
  // poll's timeout.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
      message: `${name} overflows horizontally on a phone`,
    })
    .toBeLessThanOrEqual(1);
  await screen(page, `phone-${name}`);
  await page.setViewportSize({ width: 1280, height: 720 });
}

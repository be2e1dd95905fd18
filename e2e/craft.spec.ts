import { expect, test } from "@playwright/test";
import { screen, signIn } from "./pages/studio";

const PAGES = [
  ["overview", "/"],
  ["tools", "/tools"],
  ["tool-editor", "/tools/search_catalog"],
  ["agents", "/agents"],
  ["agent-matrix", "/agents/demo?tab=tools"],
  ["mcp", "/mcp"],
  ["openapi", "/openapi"],
  ["playground", "/playground"],
  ["approvals", "/approvals"],
  ["sessions", "/sessions"],
  ["doctor", "/doctor"],
] as const;

test("every page renders in dark mode and on a phone-sized screen without horizontal overflow", async ({ page }) => {
  await signIn(page);
  for (const [name, path] of PAGES) {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await expect(page.locator("main h1")).toBeVisible();
    await screen(page, `dark-${name}`);
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    await expect(page.locator("main h1")).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${path} overflows horizontally on a phone`).toBeLessThanOrEqual(1);
    await screen(page, `phone-${name}`);
  }
});

test("keyboard: / focuses the tool search, and the nav and a tool row are reachable with Tab", async ({ page }) => {
  await signIn(page, "/tools");
  const searchbox = page.getByRole("searchbox", { name: "Search tools" });
  // The shortcut is a listener React attaches on hydration: a "/" pressed before it lands on
  // the page and does nothing, so press again until it is there.
  await expect(async () => {
    await page.keyboard.press("/");
    await expect(searchbox).toBeFocused({ timeout: 250 });
  }).toPass({ timeout: 10_000 });
  await expect(searchbox).toHaveValue("");
  await page.keyboard.type("subscribe");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.locator('[data-tool="subscribe_to_learning_path"] a')).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/tools\/subscribe_to_learning_path$/);
});

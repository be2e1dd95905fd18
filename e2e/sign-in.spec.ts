import { expect, test } from "@playwright/test";
import { LoginPage } from "./pages/login-page";

test("the Studio home page asks for the token, refuses a wrong one and signs in with the right one", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);

  const login = new LoginPage(page);
  await login.signIn("not-the-token");
  await expect(login.error()).toContainText("not valid");
  await page.screenshot({ path: "test-results/screens/login-refused.png", fullPage: true });

  await login.signIn(process.env.E2E_TOKEN!);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText("Demo store assistant")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/overview.png", fullPage: true });
});

test("the API refuses a request without the token", async ({ request }) => {
  const res = await request.get("/v1/tools");
  expect(res.status()).toBe(401);
  expect((await res.json()).error.code).toBe("unauthorized");
});

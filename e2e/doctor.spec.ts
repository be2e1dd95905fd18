import { expect, test } from "@playwright/test";
import { authHeaders, screen, signIn } from "./pages/studio";

test("the Doctor page shows the same checks as insika doctor, dropped tools included", async ({ page, request }) => {
  await signIn(page, "/doctor");
  const api = await (await request.get("/v1/doctor", { headers: authHeaders() })).json();
  for (const check of api.checks as { name: string; status: string }[]) {
    await expect(page.locator(`[data-check="${check.name}"]`)).toHaveAttribute("data-status", check.status);
  }
  await expect(page.locator('[data-check="egress"]')).toContainText("plain http allowed");
  await screen(page, "doctor");
});

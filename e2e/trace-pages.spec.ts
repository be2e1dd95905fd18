import { expect, test } from "@playwright/test";
import { authHeaders, screen, signIn } from "./pages/studio";

test.beforeEach(async ({ page }) => signIn(page));

/** The trace of a session of 105 turns shows one page of them at a time: the latest first. */
test("a long session's trace opens on its latest turns and pages back and forth", async ({ page, request }) => {
  test.setTimeout(120_000);
  const headers = authHeaders();
  const agent = await request.put("/v1/agents/e2e_pages", {
    headers,
    data: { name: "E2E pages", model: { provider: "demo", model: "demo" } },
  });
  expect(agent.ok()).toBe(true);
  const session = (await (await request.post("/v1/sessions", { headers, data: { agent_id: "e2e_pages" } })).json())
    .id as string;
  const turnIds: string[] = [];
  for (let i = 1; i <= 105; i++) {
    const turn = await (
      await request.post(`/v1/sessions/${session}/turns`, { headers, data: { message: `question ${i}` } })
    ).json();
    expect(turn.status).toBe("completed");
    turnIds.push(turn.turn_id);
  }
  const pages = page.getByTestId("turn-pages");
  const turns = page.locator('details[id^="turn-"]');

  await page.goto(`/sessions/${session}`);
  await expect(pages).toContainText("Turns 101–105 of 105");
  await expect(turns).toHaveCount(5);
  await expect(page.getByText("question 105").first()).toBeVisible();
  await expect(pages.getByRole("link", { name: "Later turns" })).toHaveCount(0);
  await screen(page, "trace-latest-page");

  await pages.getByRole("link", { name: "Earlier turns" }).click();
  await expect(page).toHaveURL(/after_seq=0/);
  await expect(pages).toContainText("Turns 1–100 of 105");
  await expect(turns).toHaveCount(100);
  await expect(pages.getByRole("link", { name: "Earlier turns" })).toHaveCount(0);
  await pages.getByRole("link", { name: "Later turns" }).click();
  await expect(pages).toContainText("Turns 101–105 of 105");

  // A link to an early turn lands on its page, with that turn open.
  await page.goto(`/sessions/${session}?turn=${turnIds[2]}`);
  await expect(pages).toContainText("Turns 1–100 of 105");
  await expect(page.locator(`details[id="turn-${turnIds[2]}"]`)).toHaveAttribute("open", "");
  await screen(page, "trace-linked-turn-page");

  // A parameter given twice names nothing: the trace opens on its latest turns, not on an error.
  for (const query of [`turn=${turnIds[2]}&turn=${turnIds[3]}`, "call=a&call=b", "after_seq=0&after_seq=5"]) {
    await page.goto(`/sessions/${session}?${query}`);
    await expect(pages).toContainText("Turns 101–105 of 105");
  }
});

import { expect, test, type Response } from "@playwright/test";
import { LoginPage } from "./pages/login-page";

test("the Studio home page asks for the token, refuses a wrong one and signs in with the right one", async ({
  page,
}) => {
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

test("sign-out revokes the session server-side: a copy of the cookie stops working", async ({
  page,
  context,
  request,
}) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(process.env.E2E_TOKEN!);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  const session = (await context.cookies()).find((c) => c.name === "insika_session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Strict");
  expect(session?.secure).toBe(false);
  const copied = `insika_session=${session!.value}`;
  expect((await request.get("/", { headers: { cookie: copied }, maxRedirects: 0 })).status()).toBe(200);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  const after = await request.get("/", { headers: { cookie: copied }, maxRedirects: 0 });
  expect(after.status()).toBe(307);
  expect(after.headers().location).toMatch(/\/login$/);
});

test("the session cookie is Secure when the request came over https (X-Forwarded-Proto)", async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-proto": "https" } });
  const page = await context.newPage();
  const setCookies: string[] = [];
  const noteCookie = (res: Response) =>
    res.headerValue("set-cookie").then(
      (header) => {
        if (header?.includes("insika_session=")) setCookies.push(header);
      },
      // A response still being read when the context closes has nothing to say here.
      () => undefined,
    );
  page.on("response", noteCookie);
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(process.env.E2E_TOKEN!);
  await expect.poll(() => setCookies.length).toBeGreaterThan(0);
  expect(setCookies[0]).toMatch(/;\s*secure/i);
  page.off("response", noteCookie);
  await context.close();
});

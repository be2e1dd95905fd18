import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, test } from "@playwright/test";
import { OpenApiPage } from "./pages/openapi-page";
import { screen, signIn } from "./pages/studio";

const require = createRequire(import.meta.url);
// A real public document, shipped by an npm package.
const PETSTORE = readFileSync(require.resolve("@readme/oas-examples/3.0/json/petstore.json"), "utf8");

test.beforeEach(async ({ page }) => signIn(page));

test("paste Petstore, see the tools and the secrets to provision, re-import: unchanged", async ({ page }) => {
  const openapi = new OpenApiPage(page);
  await openapi.goto();
  await expect(page.getByRole("link", { name: "OpenAPI", exact: true })).toHaveAttribute("aria-current", "page");

  await openapi.pasteDocument("e2e_pets", PETSTORE, "http://127.0.0.1:9/v2");
  await openapi.submit();
  await expect(openapi.summary()).toContainText("Imported openapi:e2e_pets from Swagger Petstore");
  await expect(openapi.stat("created")).toHaveAttribute("data-count", "20");
  await expect(openapi.stat("errors")).toHaveAttribute("data-count", "0");
  await expect(openapi.summary()).toContainText("e2e_pets_api_key");
  await expect(openapi.summary()).toContainText("INSIKA_SECRET_E2E_PETS_API_KEY");
  await expect(openapi.imports()).toContainText("openapi:e2e_pets");
  await expect(openapi.imports()).toContainText("20 tools");
  await screen(page, "openapi-imported");

  await openapi.submit();
  await expect(openapi.stat("unchanged")).toHaveAttribute("data-count", "20");
  await expect(openapi.stat("created")).toHaveAttribute("data-count", "0");
});

test("a document that does not parse is refused with the parser's reason, nothing written", async ({ page }) => {
  const openapi = new OpenApiPage(page);
  await openapi.goto();
  await openapi.pasteDocument("e2e_broken", "openapi: [");
  await openapi.submit();
  await expect(openapi.failure()).toContainText("the document does not parse: not valid YAML");
  await expect(page.getByTestId("openapi-imports").getByText("openapi:e2e_broken")).toHaveCount(0);
});

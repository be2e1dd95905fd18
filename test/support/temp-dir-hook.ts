/**
 * Test setup file: removes the test file's temporary directories after it. Listed first in
 * `setupFiles`, so with vitest's stacked hooks it runs last, after the file's own afterAll
 * (which stops its servers) and the other setup files' checks.
 */
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dir";

afterAll(() => {
  removeTempDirs();
});

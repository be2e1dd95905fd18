/**
 * Integration setup file: after each test file, fail the file when one of the
 * servers it started logged an uncaught exception or an unhandled rejection
 * (see server-log-check.ts). Registered first, so with vitest's stacked hooks
 * it runs after the file's own afterAll (which stops the servers): the logs
 * are complete by then.
 */
import { afterAll } from "vitest";
import { assertServersLoggedNoProcessErrors } from "./server";

afterAll(() => {
  assertServersLoggedNoProcessErrors();
});

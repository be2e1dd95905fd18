/**
 * What a Studio server action returns: a value, or the error as a value (never
 * thrown), so a form can show it at the field. Unknown errors are logged and
 * reported without their internals, as the API does.
 */
import { z } from "zod";
import { parseWith } from "@/lib/api/route";
import { DomainError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";

/** `details` carries the DomainError's details when it has any (e.g. egress_blocked: {rule, hint}). */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; code: string; error: string; details?: unknown };

export { studioDb } from "@/lib/api/studio-db";

/** Runs one service call and turns its outcome into an ActionResult. */
export async function asResult<T>(work: () => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof DomainError) {
      return error.details === undefined
        ? { ok: false, code: error.code, error: error.message }
        : { ok: false, code: error.code, error: error.message, details: error.details };
    }
    log.error("studio action failed", describeError(error));
    return { ok: false, code: "internal", error: "internal error (see the server log)" };
  }
}

/**
 * An action's arguments, checked at run time: an action is a public POST endpoint, and its
 * arguments arrive as the client sent them, whatever their TypeScript types say. `shape` names
 * each argument with the schema its /v1 route applies (the route's own, shared, where it has
 * one). Call it inside asResult, before any other work: a bad argument throws the 422
 * (validation_failed, "name: problem") that asResult answers as the action's error result.
 */
export function parseArgs<S extends z.ZodRawShape>(
  shape: S,
  args: { [K in keyof S]: unknown },
): z.output<z.ZodObject<S>> {
  return parseWith(z.object(shape), args);
}

/**
 * An error whose message is exactly what `turn_failed.error` should say (a limit, a deadline,
 * a cancellation). Any other error reaching the loop is wrapped with who was at fault.
 */
export class TurnFailure extends Error {
  override name = "TurnFailure";
}

/** The message of anything thrown, without a stack or a class-name prefix. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** Who was at fault, in words the operator reads (the codes are in lib/engine/turn-failure.ts). */
const FAULT_WORDS: Record<string, string> = {
  model: "the model provider",
  configuration: "the configuration",
  limit: "a limit",
  cancelled: "a cancellation",
  system: "Insika itself",
};

/**
 * How the Studio says a turn failed: "Failed — the model provider: <error>". An unknown or
 * missing fault (a turn recorded before faults existed) reads "Failed: <error>".
 */
export function failureText(error: string, fault: unknown): string {
  const words = typeof fault === "string" && Object.hasOwn(FAULT_WORDS, fault) ? FAULT_WORDS[fault] : undefined;
  return words ? `Failed — ${words}: ${error}` : `Failed: ${error}`;
}

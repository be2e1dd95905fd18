/**
 * Whether a string is already JSON text (DESIGN D2: every result reaches the model as JSON
 * text, so text that is not gets wrapped as a JSON string). JSON.parse is linear in the
 * input: no input can stall it.
 */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Underscores cut from the ends of a name, in one pass. The regex forms (`/^_+|_+$/g`,
 * `/_+$/`) retry from every position of a long run of underscores inside a name, which is
 * quadratic: a document's parameter or scheme name of 80,000 underscores took seconds.
 */

/** `text` without leading (`start`) and trailing (`end`) underscores; both by default. */
export function trimUnderscores(text: string, ends: { start?: boolean; end?: boolean } = {}): string {
  let from = 0;
  let to = text.length;
  if (ends.start !== false) while (from < to && text.charCodeAt(from) === 95) from += 1;
  if (ends.end !== false) while (to > from && text.charCodeAt(to - 1) === 95) to -= 1;
  return text.slice(from, to);
}

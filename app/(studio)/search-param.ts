/** What a Studio page gets for its query: Next hands a repeated parameter over as a list. */
export type PageSearchParams = Record<string, string | string[] | undefined>;

/**
 * One query parameter of a page as a string. A parameter given twice names nothing, so it
 * counts as absent and the page shows its default view, as for any value it cannot use.
 */
export function searchParam(query: PageSearchParams, name: string): string | undefined {
  const value = query[name];
  return typeof value === "string" ? value : undefined;
}

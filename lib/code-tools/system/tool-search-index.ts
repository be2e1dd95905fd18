/**
 * The index behind tool_search: ranks tools by name and description words. Built once per
 * catalog version (the caller caches it), so a search over 10,000 tools touches only the
 * posting lists of the query's words (about a millisecond), never every description.
 */

export interface SearchableTool {
  name: string;
  description: string;
}

export interface ToolMatch extends SearchableTool {
  score: number;
}

const NAME_WEIGHT = 3;
const DESCRIPTION_WEIGHT = 1;
const PREFIX_FACTOR = 0.5;
const MAX_PREFIX_EXPANSION = 50;
const STOPWORDS = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "in",
  "is",
  "it",
  "of",
  "on",
  "or",
  "the",
  "to",
  "with",
  "tool",
  "tools",
]);

/** Words of a text: lower-case, split on anything not a letter or digit and on camelCase, lightly stemmed. */
export function searchTokens(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  const tokens: string[] = [];
  for (const word of words) {
    if (word === "" || STOPWORDS.has(word)) continue;
    tokens.push(stem(word));
  }
  return tokens;
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

interface Posting {
  docs: number[];
  weights: number[];
}

/** An immutable inverted index over a set of tools. */
export class ToolSearchIndex {
  readonly #tools: SearchableTool[];
  readonly #postings = new Map<string, Posting>();
  /** Every indexed word, sorted, for prefix lookups. */
  readonly #vocabulary: string[];

  constructor(tools: Iterable<SearchableTool>) {
    this.#tools = [...tools].map((tool) => ({ name: tool.name, description: tool.description }));
    this.#tools.forEach((tool, doc) => {
      const inName = new Set(searchTokens(tool.name));
      const inDescription = new Set(searchTokens(tool.description));
      for (const token of new Set([...inName, ...inDescription])) {
        const weight = (inName.has(token) ? NAME_WEIGHT : 0) + (inDescription.has(token) ? DESCRIPTION_WEIGHT : 0);
        let posting = this.#postings.get(token);
        if (!posting) this.#postings.set(token, (posting = { docs: [], weights: [] }));
        posting.docs.push(doc);
        posting.weights.push(weight);
      }
    });
    this.#vocabulary = [...this.#postings.keys()].sort();
  }

  get size(): number {
    return this.#tools.length;
  }

  /**
   * The best `limit` tools for `query` among those `accept` lets through, best first (ties by
   * name). Each query word scores by where it appears (name over description) and how rare it
   * is; a word with no exact match counts its prefix matches at half weight; the tool whose
   * name is the query itself ranks first. No match: an empty list.
   */
  search(query: string, options: { limit: number; accept?: (name: string) => boolean }): ToolMatch[] {
    const total = this.#tools.length;
    // Dense scores and a list of touched docs: no per-doc allocation, even when a common
    // word touches every tool.
    const scores = new Float64Array(total);
    const touched: number[] = [];
    for (const token of new Set(searchTokens(query))) {
      const exact = this.#postings.get(token);
      const expansions: [Posting, number][] = exact
        ? [[exact, 1]]
        : this.#prefixed(token).map((posting) => [posting, PREFIX_FACTOR]);
      for (const [posting, factor] of expansions) {
        const idf = Math.log(1 + total / posting.docs.length) * factor;
        const { docs, weights } = posting;
        for (let i = 0; i < docs.length; i += 1) {
          const doc = docs[i] as number;
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] = (scores[doc] as number) + (weights[i] as number) * idf;
        }
      }
    }
    const wanted = query.trim().toLowerCase();
    const top: ToolMatch[] = [];
    for (const doc of touched) {
      const tool = this.#tools[doc] as SearchableTool;
      const score = tool.name === wanted ? (scores[doc] as number) + 1000 : (scores[doc] as number);
      const last = top.length === options.limit ? top[top.length - 1] : undefined;
      if (last && (score < last.score || (score === last.score && tool.name > last.name))) continue;
      if (options.accept && !options.accept(tool.name)) continue;
      insertTop(top, { name: tool.name, description: tool.description, score }, options.limit);
    }
    return top;
  }

  #prefixed(prefix: string): Posting[] {
    if (prefix.length < 3) return [];
    const found: Posting[] = [];
    let low = 0;
    let high = this.#vocabulary.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.#vocabulary[mid] as string) < prefix) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < this.#vocabulary.length && found.length < MAX_PREFIX_EXPANSION; i += 1) {
      const word = this.#vocabulary[i] as string;
      if (!word.startsWith(prefix)) break;
      found.push(this.#postings.get(word) as Posting);
    }
    return found;
  }
}

/** Keeps `top` sorted (score desc, then name) and at most `limit` long. */
function insertTop(top: ToolMatch[], match: ToolMatch, limit: number): void {
  if (limit <= 0) return;
  const better = (a: ToolMatch, b: ToolMatch) => a.score > b.score || (a.score === b.score && a.name < b.name);
  if (top.length === limit && !better(match, top[top.length - 1] as ToolMatch)) return;
  let at = top.length;
  while (at > 0 && better(match, top[at - 1] as ToolMatch)) at -= 1;
  top.splice(at, 0, match);
  if (top.length > limit) top.pop();
}

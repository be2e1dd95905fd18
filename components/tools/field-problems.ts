/**
 * Places the validator's problems (one "; "-joined message, the same text the
 * API returns) at the form field each one is about, by the path it names.
 */
import type { FieldKey, FormProblem } from "./tool-form";

const RULES: [RegExp, FieldKey][] = [
  [/^(name\b|'[^']*' is already a code tool|body name)/, "name"],
  [/^description\b/, "description"],
  [/^parameters\b/, "paramsText"],
  [/^request\.method\b/, "method"],
  [/^(request\.url\b|url must be)/, "url"],
  [/^request\.headers\b/, "headers"],
  [/^request\.query\b/, "query"],
  [/^request\.body\b/, "body"],
  [/^secret_headers\b/, "secretHeaders"],
  [/^response\.path\b/, "path"],
  [/^response\b/, "extract"],
  [/^side_effect\b/, "sideEffect"],
  [/^timeout\b/, "timeout"],
  [/^group\b/, "group"],
  [/^tags\b/, "tags"],
  [/^halt_when\.say\b/, "say"],
  [/^halt_when\.equals\b/, "haltEquals"],
  [/^halt_when\b/, "haltPath"],
];

/** Splits a validator message into problems, each at its field ("general" when none fits). */
export function placeProblems(message: string): FormProblem[] {
  return splitProblems(message).map((text) => {
    const rule = RULES.find(([re]) => re.test(text));
    return { field: rule ? rule[1] : "general", message: text };
  });
}

/** "a; b; c" -> ["a", "b", "c"] (the validator joins its problems with "; "). */
function splitProblems(message: string): string[] {
  return message
    .split("; ")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Problems grouped by field. */
export function byField(problems: FormProblem[]): Map<FieldKey, string[]> {
  const map = new Map<FieldKey, string[]>();
  for (const p of problems) map.set(p.field, [...(map.get(p.field) ?? []), p.message]);
  return map;
}

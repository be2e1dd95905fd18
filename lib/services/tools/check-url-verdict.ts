/**
 * The Studio's egress verdict for a tool URL as the operator types it: the
 * same checkDestination the guard runs at call time, under this process's
 * posture, except that it never resolves DNS. A name that needs resolving is
 * reported as "checked at call time" (the guard resolves and pins it then);
 * localhost and metadata names, IP literals and allowlist decisions need no DNS.
 */
import { checkDestination, type Resolver } from "@/lib/egress";
import { EGRESS_ENV } from "@/lib/egress";
import { getPosture } from "./egress-posture";

export type UrlVerdict =
  | { verdict: "allowed"; message: string }
  | { verdict: "blocked"; rule: string; message: string; hint: string }
  | { verdict: "deferred"; message: string }
  | { verdict: "none"; message: string };

// Placeholders may only fill the path and query, so any stand-in keeps the destination.
const PLACEHOLDER = /\{\{[^}]*\}\}/g;

/** Never resolves: the Studio must not send DNS queries for what an operator types. */
const noDns: Resolver = () =>
  Promise.reject(Object.assign(new Error("not resolved in the Studio"), { code: "STUDIO" }));

/** The verdict for `url` (a tool's URL template) under the current posture. */
export async function checkUrlVerdict(url: string): Promise<UrlVerdict> {
  const text = url.trim();
  if (text === "") return { verdict: "none", message: "" };
  if (/\{\{\s*env\./.test(text)) {
    return {
      verdict: "blocked",
      rule: "env-template",
      message: "{{env.*}} is substituted only on the manifest path",
      hint: "write a literal URL here",
    };
  }
  let posture;
  try {
    posture = getPosture();
  } catch (error) {
    return {
      verdict: "blocked",
      rule: "posture",
      message: (error as Error).message,
      hint: "fix the egress environment (see Doctor)",
    };
  }
  const decision = await checkDestination(text.replace(PLACEHOLDER, "x"), posture, noDns);
  if (decision.verdict === "blocked") {
    return { verdict: "blocked", rule: decision.rule, message: `blocked: ${decision.reason}`, hint: decision.hint };
  }
  if (decision.verdict === "unresolved") {
    return posture.hosts.length > 0
      ? { verdict: "allowed", message: `allowed: listed in ${EGRESS_ENV.hosts}; resolved and pinned at call time` }
      : { verdict: "deferred", message: "will be checked at call time: resolved and pinned" };
  }
  const because = {
    public: "a public address",
    allowlisted: `listed in ${EGRESS_ENV.hosts}`,
    "allow-private": `${EGRESS_ENV.allowPrivate} is on`,
  }[decision.rule];
  return { verdict: "allowed", message: `allowed: ${because} (${decision.address})` };
}

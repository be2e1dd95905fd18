/**
 * The shape of a refusal. Every refusal names a stable rule id (for traces,
 * tests and dashboards), a reason (what the model reads, after the fixed
 * `destination blocked: ` prefix) and a hint naming the setting that would
 * widen it — egress failures are otherwise silent (spec "Egress").
 */

/** Stable rule ids. Never rename one: traces and alerts key on them. */
export type EgressRule =
  | "invalid-url"
  | "bad-port"
  | "too-long"
  | "control-chars"
  | "backslash"
  | "userinfo"
  | "zone-id"
  | "scheme"
  | "plain-http"
  | "metadata-host"
  | "always-blocked"
  | "not-allowlisted"
  | "port"
  | "private-address"
  | "mixed-dns-answer"
  | "bad-dns-answer";

/** A refusal, as checkDestination returns it and the trace records it. */
export interface EgressBlock {
  verdict: "blocked";
  rule: EgressRule;
  /** Why, in words, without the prefix: `10.0.0.1 is a private address (RFC 1918, 10.0.0.0/8)`. */
  reason: string;
  /** What would widen it, e.g. `set INSIKA_EGRESS_ALLOW_PRIVATE=1 (dev only) or list ...`. */
  hint: string;
  /** Exactly `destination blocked: <reason>`: the error text the model receives. */
  message: string;
}

/** The prefix every refusal message starts with (the model and tests rely on it). */
export const BLOCKED_PREFIX = "destination blocked: ";

/** Hint for refusals no setting can lift. */
export const NO_WIDENING = "none: no setting permits this destination";

/** Builds an {@link EgressBlock}; `message` is always `destination blocked: <reason>`. */
export function egressBlock(rule: EgressRule, reason: string, hint: string): EgressBlock {
  return { verdict: "blocked", rule, reason, hint, message: `${BLOCKED_PREFIX}${reason}` };
}

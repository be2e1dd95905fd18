/**
 * The provider posture (INSIKA_PROVIDER_HOSTS): a hostile table of model base URLs through
 * the guard's decision, with a stubbed resolver (no DNS, no traffic). Public https is allowed
 * without a listing; a listed host may be private/loopback, plain http and any port.
 */
import { describe, expect, it } from "vitest";
import { checkDestination } from "./check-destination";
import type { EgressRule } from "./egress-block";
import { describePosture, EgressConfigError, parseProviderPosture } from "./posture";
import { stubResolver } from "@/test/support/egress-doubles";

const DNS: Record<string, string[]> = {
  "api.openai.com": ["162.159.140.245"],
  "api.anthropic.com": ["160.79.104.10"],
  "llm.internal": ["10.0.0.7"],
  "rebind.example": ["93.184.216.34", "127.0.0.1"],
  "meta.example": ["169.254.169.254"],
  "public.example": ["93.184.216.34"],
};
const { resolver } = stubResolver((host) => DNS[host] ?? new Error(`no such host ${host}`));

const NONE = parseProviderPosture(undefined);
const LOOP = parseProviderPosture("127.0.0.1, localhost, [::1]");
const LAN = parseProviderPosture("llm.internal, 10.0.0.5:8000, 192.168.0.0/16");

type Expect = { allow: string } | { block: EgressRule; hint?: RegExp };
const ROWS: [string, string, ReturnType<typeof parseProviderPosture>, Expect][] = [
  ["default OpenAI endpoint", "https://api.openai.com/v1", NONE, { allow: "public" }],
  ["default Anthropic endpoint", "https://api.anthropic.com/v1", NONE, { allow: "public" }],
  ["public https stays allowed beside a listing", "https://api.openai.com/v1", LOOP, { allow: "public" }],
  [
    "loopback unlisted",
    "http://127.0.0.1:11434/v1",
    NONE,
    { block: "plain-http", hint: /list 127\.0\.0\.1 in INSIKA_PROVIDER_HOSTS/ },
  ],
  [
    "loopback over https unlisted",
    "https://127.0.0.1/v1",
    NONE,
    { block: "private-address", hint: /^list 127\.0\.0\.1 in INSIKA_PROVIDER_HOSTS$/ },
  ],
  [
    "loopback on another port unlisted",
    "https://127.0.0.1:8443/v1",
    NONE,
    { block: "port", hint: /list 127\.0\.0\.1:8443 in INSIKA_PROVIDER_HOSTS/ },
  ],
  ["localhost unlisted", "http://localhost:11434/v1", NONE, { block: "plain-http" }],
  ["decimal loopback unlisted", "https://2130706433/v1", NONE, { block: "private-address" }],
  ["IPv6 loopback unlisted", "https://[::1]/v1", NONE, { block: "private-address" }],
  ["mapped loopback unlisted", "https://[::ffff:127.0.0.1]/v1", NONE, { block: "private-address" }],
  ["RFC 1918 unlisted", "https://10.0.0.5/v1", NONE, { block: "private-address" }],
  [
    "name resolving private unlisted",
    "https://llm.internal/v1",
    NONE,
    { block: "private-address", hint: /list llm\.internal in INSIKA_PROVIDER_HOSTS/ },
  ],
  ["rebinding answer (public + loopback)", "https://rebind.example/v1", NONE, { block: "mixed-dns-answer" }],
  ["public host on plain http", "http://public.example/v1", NONE, { block: "plain-http" }],
  ["public host on an odd port", "https://public.example:8443/v1", NONE, { block: "port" }],
  ["listed loopback, http, any port", "http://127.0.0.1:11434/v1", LOOP, { allow: "allowlisted" }],
  ["listed localhost", "http://localhost:8000/v1", LOOP, { allow: "allowlisted" }],
  ["listed IPv6 loopback", "http://[::1]:8080/v1", LOOP, { allow: "allowlisted" }],
  ["other loopback address, not listed", "http://127.0.0.2:11434/v1", LOOP, { block: "plain-http" }],
  [
    "decimal form is not the listed literal's text but the same address",
    "http://2130706433:11434/v1",
    LOOP,
    { allow: "allowlisted" },
  ],
  ["listed name resolving private", "http://llm.internal:8080/v1", LAN, { allow: "allowlisted" }],
  ["listed host:port on its port", "http://10.0.0.5:8000/v1", LAN, { allow: "allowlisted" }],
  ["listed host:port on another port", "http://10.0.0.5:9000/v1", LAN, { block: "plain-http" }],
  ["listed CIDR", "http://192.168.1.20:1234/v1", LAN, { allow: "allowlisted" }],
  ["metadata address, even listed range", "http://169.254.169.254/v1", LAN, { block: "always-blocked" }],
  ["name resolving to metadata", "https://meta.example/v1", NONE, { block: "always-blocked" }],
  ["metadata name", "http://metadata.google.internal/v1", LOOP, { block: "metadata-host" }],
  ["unspecified", "http://0.0.0.0:11434/v1", LOOP, { block: "always-blocked" }],
  ["backslash", "http://127.0.0.1:11434\\v1", LOOP, { block: "backslash" }],
  ["userinfo", "https://sk-key@api.openai.com/v1", NONE, { block: "userinfo" }],
  ["control character", "https://api.openai.com/v1\n", NONE, { block: "control-chars" }],
  ["bad port", "http://127.0.0.1:99999/v1", LOOP, { block: "bad-port" }],
  ["another scheme", "file:///etc/passwd", LOOP, { block: "scheme" }],
];

describe("provider posture (INSIKA_PROVIDER_HOSTS)", () => {
  it.each(ROWS)("%s: %s", async (_label, url, posture, expected) => {
    const d = await checkDestination(url, posture, resolver);
    if ("allow" in expected) {
      expect(d).toMatchObject({ verdict: "allowed", rule: expected.allow });
    } else {
      expect(d).toMatchObject({ verdict: "blocked", rule: expected.block });
      if (expected.hint && d.verdict === "blocked") expect(d.hint).toMatch(expected.hint);
      // The INSIKA_EGRESS_* flags never widen provider calls, so no hint names them.
      if (d.verdict === "blocked") expect(d.hint).not.toMatch(/INSIKA_EGRESS/);
    }
  });

  it("parses with the INSIKA_EGRESS_HOSTS syntax, naming its own variable on a bad entry", () => {
    expect(LAN.hosts.map((h) => h.entry)).toEqual(["llm.internal", "10.0.0.5:8000", "192.168.0.0/16"]);
    expect(() => parseProviderPosture("ok.example, 169.254.169.254")).toThrow(EgressConfigError);
    expect(() => parseProviderPosture("a b")).toThrow(/^INSIKA_PROVIDER_HOSTS: bad entry "a b"/);
    expect(parseProviderPosture("  ,, ").hosts).toEqual([]);
  });

  it("describes itself for doctor", () => {
    expect(describePosture(NONE)).toBe("public https only");
    expect(describePosture(LOOP)).toMatch(/^public https, and 127\.0\.0\.1, localhost, \[::1\]/);
  });
});

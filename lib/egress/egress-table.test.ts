/**
 * The hostile-URL table: every row goes through guardedRequest under the default
 * posture and under INSIKA_EGRESS_ALLOW_PRIVATE=1, with a stubbed resolver and a
 * connector that records attempts and never opens a socket. A blocked row must
 * show zero connect attempts; an allowed row must show the connector was handed
 * exactly the vetted addresses (and the stub then refuses: nothing is sent).
 */
import { afterEach, describe, expect, it } from "vitest";
import { checkDestination, decideDestination } from "./check-destination";
import type { EgressRule } from "./egress-block";
import type { EgressDispatcher } from "./egress-dispatcher";
import { createEgressDispatcher } from "./egress-dispatcher";
import { guardedRequest } from "./guarded-request";
import type { EgressPosture } from "./posture";
import { parsePosture } from "./posture";
import { notFound, recordingConnector, stubResolver } from "@/test/support/egress-doubles";

type Expect = { block: EgressRule } | { allow: string[] } | { unresolved: true };

const DNS: Record<string, string[]> = {
  "internal.example": ["10.1.2.3"],
  "mixed.example": ["93.184.216.34", "10.0.0.1"],
  "meta.example": ["169.254.169.254"],
  "mixed-meta.example": ["93.184.216.34", "169.254.169.254"],
  "mapped.example": ["::ffff:127.0.0.1"],
  "public.example": ["93.184.216.34"],
  "dual.example": ["2606:2800:220:1:248:1893:25c8:1946", "93.184.216.34"],
  "v6meta.example": ["::ffff:169.254.169.254"],
  "nat64.example": ["64:ff9b::a9fe:a9fe"],
  "sixtofour.example": ["2002:7f00:1::1"],
  "ula.example": ["fd12:3456::1"],
  "weird.example": ["0x7f.1"],
};

const LOOP = { allow: ["127.0.0.1"] };
const PRIVATE: Expect = { block: "private-address" };
const same = (rule: EgressRule): [Expect, Expect] => [{ block: rule }, { block: rule }];

// [label, url, default posture, ALLOW_PRIVATE posture, resolved by DNS?]
const ROWS: [string, string, Expect, Expect, boolean?][] = [
  // Alternative IPv4 encodings (WHATWG URL normalizes them; the guard sees 127.0.0.1).
  ["decimal integer", "https://2130706433/", PRIVATE, LOOP],
  ["hex dotted", "https://0x7f.1/", PRIVATE, LOOP],
  ["octal dotted", "https://0177.0.0.1/", PRIVATE, LOOP],
  ["short form", "https://127.1/", PRIVATE, LOOP],
  ["hex integer", "https://0x7f000001/", PRIVATE, LOOP],
  ["trailing dot", "https://127.0.0.1./", PRIVATE, LOOP],
  ["percent-encoded host", "https://127.0.0.%31/", PRIVATE, LOOP],
  ["fullwidth digits", "https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", PRIVATE, LOOP],
  ["zero", "https://0/", ...same("always-blocked")],
  ["unspecified", "https://0.0.0.0/", ...same("always-blocked")],
  ["rfc1918 10/8", "https://10.0.0.1/", PRIVATE, { allow: ["10.0.0.1"] }],
  ["rfc1918 172.16/12", "https://172.16.5.4/", PRIVATE, { allow: ["172.16.5.4"] }],
  ["rfc1918 192.168/16", "https://192.168.1.1/", PRIVATE, { allow: ["192.168.1.1"] }],
  ["cgnat", "https://100.64.0.1/", PRIVATE, { allow: ["100.64.0.1"] }],
  ["benchmarking", "https://198.18.0.1/", PRIVATE, { allow: ["198.18.0.1"] }],
  ["reserved 240/4", "https://240.0.0.1/", PRIVATE, { allow: ["240.0.0.1"] }],
  ["AWS/GCP/Azure metadata", "https://169.254.169.254/latest/meta-data/", ...same("always-blocked")],
  ["metadata as hex integer", "https://0xa9fea9fe/", ...same("always-blocked")],
  ["metadata as decimal integer", "https://2852039166/", ...same("always-blocked")],
  ["ECS credentials", "https://169.254.170.2/v2/credentials", ...same("always-blocked")],
  ["Alibaba metadata", "https://100.100.100.200/latest/meta-data/", ...same("always-blocked")],
  ["Oracle metadata", "https://192.0.0.192/opc/v2/instance/", ...same("always-blocked")],
  ["multicast", "https://224.0.0.1/", ...same("always-blocked")],
  ["broadcast", "https://255.255.255.255/", ...same("always-blocked")],
  // IPv6 forms of private and metadata addresses.
  ["IPv6 loopback", "https://[::1]/", PRIVATE, { allow: ["::1"] }],
  ["IPv6 unspecified", "https://[::]/", ...same("always-blocked")],
  ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/", PRIVATE, { allow: ["::ffff:7f00:1"] }],
  ["IPv4-mapped metadata (dotted)", "https://[::ffff:169.254.169.254]/", ...same("always-blocked")],
  ["IPv4-mapped metadata (hex)", "https://[::ffff:a9fe:a9fe]/", ...same("always-blocked")],
  ["IPv4-mapped, long form", "https://[0:0:0:0:0:ffff:10.0.0.1]/", PRIVATE, { allow: ["::ffff:a00:1"] }],
  ["NAT64 loopback", "https://[64:ff9b::127.0.0.1]/", PRIVATE, { allow: ["64:ff9b::7f00:1"] }],
  ["NAT64 metadata", "https://[64:ff9b::169.254.169.254]/", ...same("always-blocked")],
  ["6to4 loopback", "https://[2002:7f00:1::]/", PRIVATE, { allow: ["2002:7f00:1::"] }],
  ["6to4 metadata", "https://[2002:a9fe:a9fe::1]/", ...same("always-blocked")],
  [
    "Teredo client loopback",
    "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
    PRIVATE,
    { allow: ["2001:0:4136:e378:8000:63bf:80ff:fffe"] },
  ],
  ["Teredo client metadata", "https://[2001:0:4136:e378:8000:63bf:5601:5601]/", ...same("always-blocked")],
  ["IPv4-compatible loopback", "https://[::127.0.0.1]/", ...same("always-blocked")],
  ["AWS IPv6 metadata", "https://[fd00:ec2::254]/", ...same("always-blocked")],
  ["ULA", "https://[fc00::1]/", PRIVATE, { allow: ["fc00::1"] }],
  ["link-local v6", "https://[fe80::1]/", ...same("always-blocked")],
  ["zone id", "https://[fe80::1%25eth0]/", ...same("zone-id")],
  ["multicast v6", "https://[ff02::1]/", ...same("always-blocked")],
  ["site-local v6", "https://[fec0::1]/", PRIVATE, { allow: ["fec0::1"] }],
  ["documentation v6", "https://[2001:db8::1]/", PRIVATE, { allow: ["2001:db8::1"] }],
  // Names decided without DNS.
  ["localhost", "https://localhost/", PRIVATE, { allow: ["127.0.0.1", "::1"] }],
  ["LOCALHOST with trailing dot", "https://LOCALHOST./", PRIVATE, { allow: ["127.0.0.1", "::1"] }],
  ["*.localhost", "https://api.localhost/", PRIVATE, { allow: ["127.0.0.1", "::1"] }],
  ["GCP metadata name", "https://metadata.google.internal/computeMetadata/v1/", ...same("metadata-host")],
  ["GCP metadata name, trailing dot", "https://METADATA.google.internal./", ...same("metadata-host")],
  ["bare metadata name", "https://metadata/", ...same("metadata-host")],
  ["AWS instance-data name", "https://instance-data/latest/", ...same("metadata-host")],
  // Names whose DNS answers decide.
  ["name -> private", "https://internal.example/", PRIVATE, { allow: ["10.1.2.3"] }, true],
  [
    "name -> mixed public+private",
    "https://mixed.example/",
    { block: "mixed-dns-answer" },
    { allow: ["93.184.216.34", "10.0.0.1"] },
    true,
  ],
  ["name -> metadata", "https://meta.example/", ...same("always-blocked"), true],
  ["name -> public+metadata", "https://mixed-meta.example/", ...same("always-blocked"), true],
  ["name -> IPv4-mapped loopback", "https://mapped.example/", PRIVATE, { allow: ["::ffff:7f00:1"] }, true],
  ["name -> IPv4-mapped metadata", "https://v6meta.example/", ...same("always-blocked"), true],
  ["name -> NAT64 metadata", "https://nat64.example/", ...same("always-blocked"), true],
  ["name -> 6to4 loopback", "https://sixtofour.example/", PRIVATE, { allow: ["2002:7f00:1::1"] }, true],
  ["name -> ULA", "https://ula.example/", PRIVATE, { allow: ["fd12:3456::1"] }, true],
  ["name -> non-IP answer", "https://weird.example/", ...same("bad-dns-answer"), true],
  ["name -> public", "https://public.example/", { allow: ["93.184.216.34"] }, { allow: ["93.184.216.34"] }, true],
  [
    "name -> dual-stack public",
    "https://dual.example/x",
    { allow: ["2606:2800:220:1:248:1893:25c8:1946", "93.184.216.34"] },
    { allow: ["2606:2800:220:1:248:1893:25c8:1946", "93.184.216.34"] },
    true,
  ],
  ["unresolvable name", "https://nowhere.example/", { unresolved: true }, { unresolved: true }, true],
  // Userinfo, backslash and whitespace tricks.
  ["userinfo", "https://user:pass@public.example/", ...same("userinfo")],
  ["userinfo hiding the host", "https://public.example@10.0.0.1/", ...same("userinfo")],
  ["empty userinfo", "https://@public.example/", ...same("userinfo")],
  ["backslash before @", "https://public.example\\@10.0.0.1/", ...same("backslash")],
  ["backslash as slash", "https:\\\\10.0.0.1\\", ...same("backslash")],
  ["tab inside host", "https://10.0.\t0.1/", ...same("control-chars")],
  ["newline", "https://public.example/\n", ...same("control-chars")],
  ["leading space", " https://10.0.0.1/", ...same("control-chars")],
  ["NUL", "https://public.example/\u0000", ...same("control-chars")],
  ["no-break space", "https://public.example/\u00a0", ...same("control-chars")],
  // Schemes.
  ["file:", "file:///etc/passwd", ...same("scheme")],
  ["gopher:", "gopher://127.0.0.1:6379/_FLUSHALL", ...same("scheme")],
  ["ftp:", "ftp://public.example/", ...same("scheme")],
  ["data:", "data:text/plain,hello", ...same("scheme")],
  ["javascript:", "javascript:alert(1)", ...same("scheme")],
  ["ws:", "ws://public.example/", ...same("scheme")],
  ["plain http", "http://public.example/", ...same("plain-http")],
  ["plain http to loopback", "http://127.0.0.1:8080/", ...same("plain-http")],
  // Ports and size.
  ["non-default port", "https://public.example:8443/", { block: "port" }, { allow: ["93.184.216.34"] }, true],
  ["ssh port on loopback", "https://127.0.0.1:22/", { block: "port" }, LOOP],
  ["over 8 KiB", `https://public.example/${"a".repeat(9000)}`, ...same("too-long")],
  ["not a URL", "https://", ...same("invalid-url")],
  ["relative URL", "/just/a/path", ...same("invalid-url")],
];

const STRICT = parsePosture({});
const PRIV = parsePosture({ INSIKA_EGRESS_ALLOW_PRIVATE: "1" });
const opened: EgressDispatcher[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.close()));
});

async function run(url: string, posture: EgressPosture) {
  const { resolver, calls } = stubResolver((host) => DNS[host] ?? notFound(host));
  const { connector, attempts } = recordingConnector({ loopback: false });
  const dispatcher = createEgressDispatcher(posture, { connector });
  opened.push(dispatcher);
  const result = await guardedRequest({ method: "GET", url, timeoutMs: 5_000 }, { posture, resolver, dispatcher });
  return { result, calls, attempts };
}

function assertOutcome(outcome: Awaited<ReturnType<typeof run>>, expected: Expect) {
  const { result, attempts } = outcome;
  expect(result.ok).toBe(false);
  if (result.ok) return;
  if ("block" in expected) {
    expect(result.kind).toBe("blocked");
    expect(result.egress?.rule).toBe(expected.block);
    expect(result.error).toMatch(/^destination blocked: \S/);
    expect(attempts).toEqual([]);
  } else if ("unresolved" in expected) {
    expect(result.kind).toBe("network");
    expect(attempts).toEqual([]);
  } else {
    // Allowed by the guard; the stub connector refused, so nothing left the process.
    expect(result.kind).toBe("network");
    expect(result.hops[0]?.verdict).toBe("allowed");
    expect(attempts.length).toBeGreaterThan(0);
    for (const a of attempts) expect(a.vetted).toEqual(expected.allow);
  }
}

describe("egress table: hostile URLs", () => {
  it("has at least 40 rows", () => expect(ROWS.length).toBeGreaterThanOrEqual(40));

  describe.each(ROWS)("%s: %j", (_label, url, strict, priv, resolves) => {
    it("default posture", async () => {
      const outcome = await run(url, STRICT);
      assertOutcome(outcome, strict);
      if (!resolves) expect(outcome.calls).toEqual([]);
    });
    it("INSIKA_EGRESS_ALLOW_PRIVATE=1", async () => {
      const outcome = await run(url, PRIV);
      assertOutcome(outcome, priv);
      if (!resolves) expect(outcome.calls).toEqual([]);
    });
  });
});

describe("decideDestination (the send loop's synchronous path)", () => {
  it.each(ROWS)("%s: checkDestination's decision, a Promise only when DNS was asked", async (_label, url) => {
    for (const posture of [STRICT, PRIV]) {
      const sync = stubResolver((host) => DNS[host] ?? notFound(host));
      const decided = decideDestination(url, posture, sync.resolver);
      const decision = await decided;
      expect(decided instanceof Promise).toBe(sync.calls.length > 0);
      const reference = stubResolver((host) => DNS[host] ?? notFound(host));
      expect(decision).toEqual(await checkDestination(url, posture, reference.resolver));
    }
  });

  it("answers an IP literal and a localhost name synchronously", () => {
    const { resolver, calls } = stubResolver(notFound);
    const literal = decideDestination("https://93.184.216.34/x", STRICT, resolver);
    expect(literal).toMatchObject({ verdict: "allowed", rule: "public", address: "93.184.216.34" });
    const local = decideDestination("https://localhost/", PRIV, resolver);
    expect(local).toMatchObject({
      verdict: "allowed",
      rule: "allow-private",
      addresses: [{ address: "127.0.0.1" }, { address: "::1" }],
    });
    expect(calls).toEqual([]);
  });
});

describe("block hints name the setting that widens them", () => {
  const resolver = stubResolver((host) => DNS[host] ?? notFound(host)).resolver;
  it.each([
    ["https://10.0.0.1/", STRICT, "private-address", /INSIKA_EGRESS_ALLOW_PRIVATE=1.*|INSIKA_EGRESS_HOSTS/],
    ["https://mixed.example/", STRICT, "mixed-dns-answer", /INSIKA_EGRESS_HOSTS/],
    ["http://public.example/", STRICT, "plain-http", /INSIKA_EGRESS_ALLOW_HTTP=1/],
    ["https://public.example:8443/", STRICT, "port", /public\.example:8443 in INSIKA_EGRESS_HOSTS/],
    [
      "https://other.example/",
      parsePosture({ INSIKA_EGRESS_HOSTS: "api.example" }),
      "not-allowlisted",
      /add other\.example to INSIKA_EGRESS_HOSTS/,
    ],
    ["https://169.254.169.254/", PRIV, "always-blocked", /^none:/],
  ] as const)("%s", async (url, posture, rule, hint) => {
    const d = await checkDestination(url, posture, resolver);
    expect(d.verdict).toBe("blocked");
    if (d.verdict !== "blocked") return;
    expect(d.rule).toBe(rule);
    expect(d.hint).toMatch(hint);
    expect(d.message).toBe(`destination blocked: ${d.reason}`);
  });

  it("words reasons for the model", async () => {
    const d1 = await checkDestination("https://[::ffff:169.254.169.254]/", STRICT, resolver);
    expect(d1.verdict === "blocked" && d1.message).toBe(
      "destination blocked: ::ffff:a9fe:a9fe (IPv4-mapped form of 169.254.169.254) is a cloud metadata service (AWS, GCP, Azure, OpenStack, ...)",
    );
    const d2 = await checkDestination("https://internal.example/", STRICT, resolver);
    expect(d2.verdict === "blocked" && d2.message).toBe(
      "destination blocked: internal.example resolves to 10.1.2.3, a private address (RFC 1918, 10.0.0.0/8)",
    );
  });
});

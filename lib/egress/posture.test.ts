import { describe, expect, it } from "vitest";
import { classifyAddress } from "./classify-address";
import { EgressConfigError, STRICT_POSTURE, describePosture, parsePosture } from "./posture";

describe("parsePosture", () => {
  it("defaults to strict: public https only", () => {
    const p = parsePosture({});
    expect(p).toEqual(STRICT_POSTURE);
    expect(describePosture(p)).toBe("strict: public https only");
  });

  it.each(["1", "true", "TRUE", "Yes", "on", " ON "])("reads %j as on", (v) => {
    const p = parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: v, INSIKA_EGRESS_ALLOW_PRIVATE: v });
    expect(p.allowHttp).toBe(true);
    expect(p.allowPrivate).toBe(true);
  });

  it.each(["0", "false", "no", "OFF", ""])("reads %j as off", (v) => {
    expect(parsePosture({ INSIKA_EGRESS_ALLOW_PRIVATE: v }).allowPrivate).toBe(false);
  });

  it("refuses an unrecognized flag value, naming the variable", () => {
    expect(() => parsePosture({ INSIKA_EGRESS_ALLOW_PRIVATE: "maybe" })).toThrow(
      /INSIKA_EGRESS_ALLOW_PRIVATE: expected 1\/true\/yes\/on/,
    );
  });

  it("parses every allowlist form", () => {
    const p = parsePosture({
      INSIKA_EGRESS_HOSTS:
        " api.example.com, *.corp.example:8443,10.0.0.5,10.1.0.0/16:8080, [fd00::1]:9000, fd00:abcd::/32 ,127.0.0.1:3000,BÜCHER.example., localhost:5173,,",
    });
    expect(p.hosts.map((h) => [h.kind, h.port])).toEqual([
      ["name", null],
      ["suffix", 8443],
      ["ip", null],
      ["ip", 8080],
      ["ip", 9000],
      ["ip", null],
      ["ip", 3000],
      ["name", null],
      ["name", 5173],
    ]);
    const names = p.hosts.flatMap((h) => (h.kind === "name" ? [h.name] : h.kind === "suffix" ? [h.suffix] : []));
    expect(names).toEqual(["api.example.com", "corp.example", "xn--bcher-kva.example", "localhost"]);
    const cidr = p.hosts[3];
    expect(cidr?.kind === "ip" && cidr.range[1]).toBe(16);
  });

  it.each([
    ["foo bar", /bad entry "foo bar"/],
    ["http://x.com", /bad entry "http:\/\/x.com"/],
    ["x.com:0", /port 0 out of range/],
    ["x.com:99999", /bad port|out of range/],
    ["x.com:http", /bad port/],
    ["10.0.0.0/33", /bad prefix length/],
    ["10.0.0/8", /not a valid CIDR/],
    ["[fd00::1", /missing \]/],
    ["*", /not a host name/],
    ["*.", /not a host name/],
    ["a..b", /not a host name/],
    ["user@x.com", /not a host name/],
    ["2130706433", /dotted decimal/],
    ["0x7f.1", /dotted decimal/],
    ["169.254.169.254", /always blocked/],
    ["[fd00:ec2::254]", /always blocked/],
    ["0.0.0.0", /always blocked/],
    ["metadata.google.internal", /metadata host names cannot be allowlisted/],
  ])("refuses %j", (entry, message) => {
    let err: unknown;
    try {
      parsePosture({ INSIKA_EGRESS_HOSTS: `ok.example.com,${entry}` });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EgressConfigError);
    expect((err as Error).message).toMatch(/^INSIKA_EGRESS_HOSTS: bad entry/);
    expect((err as Error).message).toMatch(message);
  });

  it("keeps a CIDR that overlaps always-blocked space: the check still refuses those addresses", () => {
    const p = parsePosture({ INSIKA_EGRESS_HOSTS: "169.254.0.0/16" });
    expect(p.hosts).toHaveLength(1);
    expect(classifyAddress("169.254.169.254").class).toBe("always-blocked");
  });

  it("describes relaxed and allowlist postures", () => {
    expect(describePosture(parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_ALLOW_PRIVATE: "1" }))).toBe(
      "relaxed: plain http allowed; private addresses and any port allowed (dev only)",
    );
    expect(describePosture(parsePosture({ INSIKA_EGRESS_HOSTS: "api.example.com" }))).toBe(
      "allowlist: only api.example.com (listed hosts may be private); https only",
    );
    expect(
      describePosture(parsePosture({ INSIKA_EGRESS_HOSTS: "127.0.0.1:3000", INSIKA_EGRESS_ALLOW_HTTP: "yes" })),
    ).toBe("relaxed: only 127.0.0.1:3000 (listed hosts may be private); plain http allowed");
  });

  it("returns frozen postures", () => {
    const p = parsePosture({ INSIKA_EGRESS_HOSTS: "a.example" });
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.hosts)).toBe(true);
  });
});

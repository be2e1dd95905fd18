import { describe, expect, it } from "vitest";
import { classifyAddress, describeAddressClass, parseIp } from "./classify-address";
import { classifyHostname } from "./classify-hostname";

type Class = "public" | "private" | "always-blocked";

// Pure classification: no sockets are opened in this file.
const TABLE: [address: string, cls: Class, kind?: string][] = [
  ["93.184.216.34", "public"],
  ["8.8.8.8", "public"],
  ["1.1.1.1", "public"],
  ["0.0.0.0", "always-blocked", "unspecified"],
  ["0.1.2.3", "always-blocked", "unspecified"],
  ["127.0.0.1", "private", "loopback"],
  ["127.255.255.254", "private", "loopback"],
  ["10.0.0.1", "private", "rfc1918"],
  ["172.16.0.1", "private", "rfc1918"],
  ["172.31.255.255", "private", "rfc1918"],
  ["172.32.0.1", "public"],
  ["192.168.1.1", "private", "rfc1918"],
  ["100.64.0.1", "private", "cgnat"],
  ["100.127.255.255", "private", "cgnat"],
  ["100.128.0.1", "public"],
  ["169.254.169.254", "always-blocked", "metadata"],
  ["169.254.170.2", "always-blocked", "metadata"],
  ["169.254.1.1", "always-blocked", "link-local"],
  ["100.100.100.200", "always-blocked", "metadata"],
  ["192.0.0.192", "always-blocked", "metadata"],
  ["168.63.129.16", "always-blocked", "metadata"],
  ["192.0.0.1", "private", "special"],
  ["192.0.2.1", "private", "special"],
  ["198.18.0.1", "private", "special"],
  ["198.19.255.255", "private", "special"],
  ["198.51.100.7", "private", "special"],
  ["203.0.113.9", "private", "special"],
  ["192.88.99.1", "private", "special"],
  ["240.0.0.1", "private", "special"],
  ["224.0.0.1", "always-blocked", "multicast"],
  ["239.255.255.250", "always-blocked", "multicast"],
  ["255.255.255.255", "always-blocked", "broadcast"],
  ["2606:2800:220:1:248:1893:25c8:1946", "public"],
  ["::", "always-blocked", "unspecified"],
  ["::1", "private", "loopback"],
  ["[::1]", "private", "loopback"],
  ["::ffff:127.0.0.1", "private", "loopback"],
  ["::ffff:7f00:1", "private", "loopback"],
  ["::ffff:10.1.2.3", "private", "rfc1918"],
  ["::ffff:169.254.169.254", "always-blocked", "metadata"],
  ["::ffff:93.184.216.34", "public"],
  ["::ffff:0:127.0.0.1", "private", "loopback"],
  ["::127.0.0.1", "always-blocked", "ipv4-compatible"],
  ["::8.8.8.8", "always-blocked", "ipv4-compatible"],
  ["64:ff9b::127.0.0.1", "private", "loopback"],
  ["64:ff9b::a9fe:a9fe", "always-blocked", "metadata"],
  ["64:ff9b::8.8.8.8", "public"],
  ["64:ff9b:1::8.8.8.8", "private", "special"],
  ["64:ff9b:1::10.0.0.1", "private", "rfc1918"],
  ["2002:7f00:1::1", "private", "loopback"],
  ["2002:a9fe:a9fe::", "always-blocked", "metadata"],
  ["2002:0a00:0001::", "private", "rfc1918"],
  ["2002:0808:0808::1", "public"],
  // Teredo: server 65.54.227.120, client stored bit-inverted: 80ff:fffe -> 127.0.0.1.
  ["2001:0:4136:e378:8000:63bf:80ff:fffe", "private", "loopback"],
  ["2001:0:4136:e378:8000:63bf:5601:5601", "always-blocked", "metadata"],
  ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "public"],
  ["fd00:ec2::254", "always-blocked", "metadata"],
  ["fd00:ec2::23", "always-blocked", "metadata"],
  ["fd20:ce::254", "always-blocked", "metadata"],
  ["fc00::1", "private", "ula"],
  ["fdff:ffff::1", "private", "ula"],
  ["fe80::1", "always-blocked", "link-local"],
  ["febf::1", "always-blocked", "link-local"],
  ["fec0::1", "private", "special"],
  ["ff02::1", "always-blocked", "multicast"],
  ["100::1", "private", "special"],
  ["2001:db8::1", "private", "special"],
  ["3fff::1", "private", "special"],
  ["2001:2::1", "private", "special"],
  ["2001:10::1", "private", "special"],
  ["2001:20::1", "private", "special"],
  ["5f00::1", "private", "special"],
  ["4000::1", "private", "special"],
];

describe("classifyAddress", () => {
  it.each(TABLE)("%s -> %s %s", (address, cls, kind) => {
    const c = classifyAddress(address);
    expect(c.class).toBe(cls);
    if (c.class !== "public") expect(c.kind).toBe(kind);
  });

  it("has at least 70 cases", () => expect(TABLE.length).toBeGreaterThanOrEqual(70));

  it("accepts ipaddr.js objects and canonicalizes the address", () => {
    const ip = parseIp("0:0:0:0:0:ffff:7f00:0001");
    expect(ip).not.toBeNull();
    const c = classifyAddress(ip!);
    expect(c.address).toBe("::ffff:7f00:1");
    expect(c.family).toBe(6);
  });

  it("names the embedded address in the description", () => {
    const c = classifyAddress("2002:a9fe:a9fe::");
    expect(describeAddressClass(c)).toContain("6to4 form of 169.254.169.254");
    expect(describeAddressClass(classifyAddress("2001:0:4136:e378:8000:63bf:80ff:fffe"))).toContain(
      "Teredo client form of 127.0.0.1",
    );
  });

  it("blocks an address with a zone id", () => {
    expect(classifyAddress("fe80::1%eth0").class).toBe("always-blocked");
  });

  it("refuses non-canonical IPv4 forms and names: those must go through URL parsing or DNS", () => {
    for (const s of ["0x7f.1", "2130706433", "0177.0.0.1", "127.1", "localhost", "", "1.2.3.4.5"]) {
      expect(parseIp(s)).toBeNull();
      expect(() => classifyAddress(s)).toThrow(TypeError);
    }
  });
});

describe("classifyHostname", () => {
  it.each([
    ["localhost", "loopback"],
    ["LOCALHOST.", "loopback"],
    ["api.localhost", "loopback"],
    ["a.b.LocalHost", "loopback"],
    ["localhost.example.com", "ordinary"],
    ["notlocalhost", "ordinary"],
    ["metadata.google.internal", "metadata"],
    ["Metadata.Google.Internal.", "metadata"],
    ["metadata", "metadata"],
    ["instance-data", "metadata"],
    ["example.com", "ordinary"],
  ])("%s -> %s", (name, cls) => expect(classifyHostname(name)).toBe(cls));
});

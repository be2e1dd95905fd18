import { describe, expect, it } from "vitest";
import { isHttpsRequest, isSameOrigin } from "./request-origin";
import { isJsonContentType } from "./studio-route";

const h = (entries: Record<string, string>) => new Headers(entries);

describe("isHttpsRequest", () => {
  it("reads the first X-Forwarded-Proto hop, else the URL", () => {
    expect(isHttpsRequest(h({ "x-forwarded-proto": "https" }))).toBe(true);
    expect(isHttpsRequest(h({ "x-forwarded-proto": "HTTPS, http" }))).toBe(true);
    expect(isHttpsRequest(h({ "x-forwarded-proto": "http, https" }))).toBe(false);
    expect(isHttpsRequest(h({}), "https://studio.example/login")).toBe(true);
    expect(isHttpsRequest(h({}), "http://127.0.0.1:3000/login")).toBe(false);
    expect(isHttpsRequest(h({}))).toBe(false);
  });
});

describe("isSameOrigin", () => {
  it("accepts only an Origin naming the host the request was sent to", () => {
    expect(isSameOrigin(h({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }), false)).toBe(true);
    expect(isSameOrigin(h({ host: "studio.example", origin: "https://STUDIO.example" }), false)).toBe(true);
    expect(isSameOrigin(h({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3001" }), false)).toBe(false);
    expect(isSameOrigin(h({ host: "127.0.0.1:3000", origin: "http://evil.example" }), false)).toBe(false);
    expect(isSameOrigin(h({ host: "127.0.0.1:3000", origin: "null" }), true)).toBe(false);
    expect(isSameOrigin(h({ host: "127.0.0.1:3000", origin: "file://127.0.0.1:3000" }), true)).toBe(false);
    expect(isSameOrigin(h({ origin: "http://127.0.0.1:3000" }), true)).toBe(false);
    expect(
      isSameOrigin(
        h({ "x-forwarded-host": "studio.example", host: "10.0.0.5:3000", origin: "https://studio.example" }),
        false,
      ),
    ).toBe(true);
  });

  it("treats a missing Origin as allowed only when asked to (reads)", () => {
    expect(isSameOrigin(h({ host: "127.0.0.1:3000" }), true)).toBe(true);
    expect(isSameOrigin(h({ host: "127.0.0.1:3000" }), false)).toBe(false);
  });
});

describe("isJsonContentType", () => {
  it("accepts application/json with parameters, nothing else", () => {
    expect(isJsonContentType("application/json")).toBe(true);
    expect(isJsonContentType("Application/JSON; charset=utf-8")).toBe(true);
    expect(isJsonContentType("text/plain")).toBe(false);
    expect(isJsonContentType("application/x-www-form-urlencoded")).toBe(false);
    expect(isJsonContentType("application/jsonp")).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
  });
});

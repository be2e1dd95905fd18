import { describe, expect, it } from "vitest";
import { checkUrlTemplate, URL_SCHEME_MESSAGE } from "@/lib/tools/check-url-template";

const HOST = "request.url: the scheme, host and port must be literal (a placeholder there would let the model choose the destination)";

describe("checkUrlTemplate", () => {
  it("accepts http(s) URLs with placeholders after the authority", () => {
    for (const url of ["https://a.example", "http://127.0.0.1:8080/x", "https://[::1]/", "https://a.example/{{p}}/{{ ctx.chat_id }}?x={{q}}#{{f}}"]) {
      expect(checkUrlTemplate(url), url).toEqual([]);
    }
  });

  it("refuses other schemes and unparseable text with the spec message", () => {
    expect(URL_SCHEME_MESSAGE).toBe("url must be http/https");
    for (const url of ["", "a.example", "ftp://a.example", "data:text/plain,x", "https://", "{{env.API}}/x", "https://{{env.HOST}}/x"]) {
      expect(checkUrlTemplate(url), url).toEqual([URL_SCHEME_MESSAGE]);
    }
  });

  it("refuses placeholders that would choose the destination", () => {
    for (const url of ["https://{{h}}", "https://a{{h}}.example/", "https://a.example{{p}}", "https:/{{h}}/x", "https://x:{{p}}@a.example/", "HTTPS://{{h}}/"]) {
      expect(checkUrlTemplate(url), url).toEqual([HOST]);
    }
  });

  it("refuses credentials, whitespace and control characters", () => {
    expect(checkUrlTemplate("https://u@a.example/")[0]).toMatch(/must not contain credentials/);
    expect(checkUrlTemplate("https://a.example/\tx")).toEqual(["request.url must not contain spaces or control characters"]);
    expect(checkUrlTemplate("https://a.example/ x")).toEqual(["request.url must not contain spaces or control characters"]);
  });
});

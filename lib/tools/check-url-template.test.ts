import { describe, expect, it } from "vitest";
import { checkDestination } from "@/lib/egress/check-destination";
import { checkUrlForm } from "@/lib/egress/url-form";
import { MAX_URL_BYTES } from "@/lib/egress/parse-url";
import { parsePosture } from "@/lib/egress/posture";
import { stubResolver } from "@/test/support/egress-doubles";
import { dataTool } from "@/test/support/data-tool";
import { buildRequest } from "@/lib/http-tools/build-request";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { checkUrlTemplate, URL_SCHEME_MESSAGE } from "@/lib/tools/check-url-template";
import { validateToolDefinition, type ToolWritePath } from "@/lib/tools/validate-definition";

const HOST =
  "request.url: the scheme, host and port must be literal (a placeholder there would let the model choose the destination)";
const guard = (rule: string, reason: string) => `request.url is refused by the egress guard (${rule}): ${reason}`;

// The widest posture: what it still refuses, no posture allows. No traffic: the resolver is a stub.
const WIDE = parsePosture({ INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_ALLOW_PRIVATE: "1" });
const { resolver } = stubResolver(() => ["93.184.216.34"]);

describe("checkUrlTemplate", () => {
  it("accepts http(s) URLs with placeholders after the authority", () => {
    for (const url of [
      "https://a.example",
      "http://127.0.0.1:8080/x",
      "https://[::1]/",
      "https://a.example/{{p}}/{{ ctx.chat_id }}?x={{q}}#{{f}}",
    ]) {
      expect(checkUrlTemplate(url), url).toEqual([]);
    }
  });

  it("refuses other schemes and unparseable text with the spec message", () => {
    expect(URL_SCHEME_MESSAGE).toBe("url must be http/https");
    for (const url of [
      "",
      "a.example",
      "ftp://a.example",
      "data:text/plain,x",
      "https://",
      "{{env.API}}/x",
      "https://{{env.HOST}}/x",
    ]) {
      expect(checkUrlTemplate(url), url).toEqual([URL_SCHEME_MESSAGE]);
    }
  });

  it("refuses placeholders that would choose the destination", () => {
    for (const url of [
      "https://{{h}}",
      "https://a{{h}}.example/",
      "https://a.example{{p}}",
      "https:/{{h}}/x",
      "https://x:{{p}}@a.example/",
      "HTTPS://{{h}}/",
    ]) {
      expect(checkUrlTemplate(url), url).toEqual([HOST]);
    }
  });
});

// [label, template, rule, reason]: every one is refused at save time with the guard's own words.
const REFUSED: [string, string, string, string][] = [
  ["backslash in the path", "https://a.example/x\\y", "backslash", "URL contains a backslash"],
  ["backslash after a placeholder", "https://a.example/{{p}}\\..\\admin", "backslash", "URL contains a backslash"],
  ["backslash as the slashes", "https:\\\\a.example\\x", "backslash", "URL contains a backslash"],
  ["tab", "https://a.example/\tx", "control-chars", "URL contains whitespace or control characters"],
  [
    "newline after a placeholder",
    "https://a.example/{{p}}\n/x",
    "control-chars",
    "URL contains whitespace or control characters",
  ],
  ["NUL", "https://a.example/\u0000", "control-chars", "URL contains whitespace or control characters"],
  ["C1 control", "https://a.example/\u0085x", "control-chars", "URL contains whitespace or control characters"],
  ["no-break space", "https://a.example/\u00a0x", "control-chars", "URL contains whitespace or control characters"],
  ["ideographic space", "https://a.example/\u3000x", "control-chars", "URL contains whitespace or control characters"],
  ["DEL", "https://a.example/\u007f", "control-chars", "URL contains whitespace or control characters"],
  ["userinfo", "https://user:pw@a.example/", "userinfo", "URL contains credentials (user@host)"],
  ["empty userinfo", "https://@a.example/", "userinfo", "URL contains credentials (user@host)"],
  ["userinfo, then a placeholder", "https://u@a.example/{{p}}", "userinfo", "URL contains credentials (user@host)"],
  ["port out of range", "https://a.example:99999/{{p}}", "bad-port", 'port "99999" is not a valid port (1-65535)'],
  ["port with letters", "https://a.example:80a/", "bad-port", 'port "80a" is not a valid port (1-65535)'],
  ["negative port", "https://a.example:-1/", "bad-port", 'port "-1" is not a valid port (1-65535)'],
  ["port 0", "https://a.example:0/", "bad-port", "port 0 is not a valid port (1-65535)"],
  ["IPv6 port out of range", "https://[::1]:70000/", "bad-port", 'port "70000" is not a valid port (1-65535)'],
  ["IPv6 zone id", "https://[fe80::1%25eth0]/", "zone-id", "IPv6 zone ids are not allowed"],
  [
    "over 8 KiB",
    `https://a.example/${"a".repeat(MAX_URL_BYTES)}`,
    "too-long",
    `URL is longer than ${MAX_URL_BYTES} bytes`,
  ],
  [
    "over 8 KiB around placeholders",
    `https://a.example/{{p}}/${"a".repeat(MAX_URL_BYTES)}?q={{q}}`,
    "too-long",
    `URL is longer than ${MAX_URL_BYTES} bytes`,
  ],
  [
    "metadata host name",
    "http://metadata.google.internal/computeMetadata/v1/{{p}}",
    "metadata-host",
    "metadata.google.internal is a cloud metadata host",
  ],
];

describe("save time and call time agree on a URL's form", () => {
  it.each(REFUSED)(
    "%s: refused when saved, with the guard's reason, on every write path",
    async (_label, url, rule, reason) => {
      for (const writePath of ["api", "manifest", "config", "mcp"] as ToolWritePath[]) {
        const r = validateToolDefinition(
          {
            name: "t",
            description: "d",
            parameters: "p | string | optional\nq | string | optional",
            request: { method: "POST", url },
          },
          { writePath, env: {}, isSecretProvisioned: () => true },
        );
        expect(r.ok, `${writePath} ${url}`).toBe(false);
        if (!r.ok) expect(r.error, writePath).toContain(guard(rule, reason));
      }
      // The guard refuses it too, for the same rule, even under the widest posture.
      const literal = url.replace(/\{\{\s*\w+\s*\}\}/g, "x");
      const decision = await checkDestination(literal, WIDE, resolver);
      expect(decision).toMatchObject({ verdict: "blocked", rule, reason });
    },
  );

  it("leaves address rules to call time (the guard decides them per call and posture)", () => {
    for (const url of [
      "http://169.254.169.254/latest/{{p}}",
      "http://0.0.0.0:8080/",
      "http://10.0.0.1/",
      "http://localhost:1/",
    ]) {
      expect(checkUrlTemplate(url), url).toEqual([]);
    }
  });

  it("checks the form of a template, not its placeholders' text", () => {
    // {{ q }} holds spaces inside its braces, the value of {{p}} is encoded when sent: both save.
    expect(checkUrlTemplate("https://a.example/{{ p }}/x?q={{ q }}")).toEqual([]);
    // A template just under the limit with long placeholder names still saves: values are not yet known.
    const long = `https://a.example/${"a".repeat(MAX_URL_BYTES - 40)}/{{${"p".repeat(60)}}}`;
    expect(checkUrlTemplate(long)).toEqual([]);
  });

  it("a template that saves builds, for hostile values, only URLs whose form the guard accepts", () => {
    const hostile = [
      "\\",
      "a\\b",
      "\t",
      "\n\r",
      "\u0000",
      "\u0085",
      "\u3000",
      "@evil.example",
      "u:p@h",
      "%00",
      "%5C",
      "#x",
      "?a=b",
      "//evil.example",
      ":99999",
      " ",
    ];
    const templates = [
      "https://a.example/items/{{p}}/x?q={{q}}",
      "http://127.0.0.1:8080/{{p}}",
      "https://[::1]/a{{p}}b?{{q}}=1",
    ];
    for (const url of templates) {
      const saved = validateToolDefinition(
        {
          name: "t",
          description: "d",
          parameters: "p | string | required\nq | string | required",
          request: { method: "GET", url },
        },
        { writePath: "api" },
      );
      if (!saved.ok) throw new Error(saved.error);
      for (const value of hostile) {
        const built = buildRequest(dataTool(saved.tool), { p: `x${value}`, q: value }, {}, staticSecrets({}));
        if (!built.ok) continue; // refused by the request builder: never sent
        expect(checkUrlForm(built.request.url), `${url} ${JSON.stringify(value)}`).toBeNull();
        expect(new URL(built.request.url).host).toBe(new URL(url.replace(/\{\{\w+\}\}/g, "x")).host);
      }
    }
  });
});

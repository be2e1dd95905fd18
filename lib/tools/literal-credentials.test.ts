import { describe, expect, it } from "vitest";
import { findLiteralCredentials, hasLiteralCredential, isCredentialHeaderName } from "./literal-credentials";

describe("isCredentialHeaderName", () => {
  it("knows the credential headers by name, in any case", () => {
    for (const name of [
      "Authorization",
      "proxy-authorization",
      "COOKIE",
      "X-Api-Key",
      "Api-Key",
      "apikey",
      "X-Auth-Token",
      "Private-Token",
      "Ocp-Apim-Subscription-Key",
    ]) {
      expect({ name, credential: isCredentialHeaderName(name) }).toEqual({ name, credential: true });
    }
  });

  it("reads token/secret/password-like words, split at -, _, . and camelCase", () => {
    for (const name of [
      "X-Refresh-Token",
      "X_CLIENT_SECRET",
      "x.db.password",
      "clientSecret",
      "X-Access-Key",
      "X-Subscription-Key",
      "Key",
      "X-Upstream-Authorization",
      "X-Db-Pwd",
      "AccessToken",
      "X-Credentials",
    ]) {
      expect({ name, credential: isCredentialHeaderName(name) }).toEqual({ name, credential: true });
    }
  });

  it("leaves ordinary headers alone", () => {
    for (const name of [
      "Accept",
      "Content-Type",
      "X-Idempotency-Key",
      "X-Cache-Key",
      "X-Author",
      "X-Auth-User",
      "X-Session",
      "X-Request-Id",
      "X-Keyboard",
      "Monkey",
    ]) {
      expect({ name, credential: isCredentialHeaderName(name) }).toEqual({ name, credential: false });
    }
  });
});

describe("hasLiteralCredential", () => {
  it("is true for written-out credential material", () => {
    for (const v of [
      "Bearer abc123",
      "abc123",
      "lang=en; sid={{session}}",
      "Bearer abc{{x}}",
      "{{x}}-k3y",
      "Basic {{user}}:hunter2",
      "{{bad",
    ]) {
      expect({ v, literal: hasLiteralCredential(v) }).toEqual({ v, literal: true });
    }
  });

  it("is false for a secret reference, a placeholder framed by a scheme or a label, and blanks", () => {
    for (const v of [
      "Bearer {{secret.api_token}}",
      "{{secret.k}}",
      "Bearer {{ctx.tenant}}",
      "sid={{param}}",
      "Basic {{user}}:{{pass}}",
      "{{ctx.chat_id}}",
      "",
      "  ",
    ]) {
      expect({ v, literal: hasLiteralCredential(v) }).toEqual({ v, literal: false });
    }
  });

  it("stays fast on long hostile values", () => {
    const started = performance.now();
    hasLiteralCredential(`${"a".repeat(200_000)}={{x}}`);
    hasLiteralCredential(`${"a=".repeat(100_000)}{{x}}`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("findLiteralCredentials", () => {
  it("names each literal credential header, pointing to {{secret.*}}, unless it is a secret header", () => {
    const headers = {
      Authorization: "Bearer abc123",
      "X-Api-Key": "k-1",
      Accept: "application/json",
      "X-Auth-Token": "{{secret.t}}",
    };
    const problems = findLiteralCredentials(headers, ["x-api-key"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^request\.headers\.Authorization: 'Authorization' carries a credential/);
    expect(problems[0]).toContain("{{secret.api_token}}");
    expect(problems[0]).not.toContain("; ");
    expect(
      findLiteralCredentials(headers, ["x-api-key"], { exemptSecretHeaders: false, where: "headers" }),
    ).toHaveLength(2);
  });
});

import { describe, expect, it } from "vitest";
import { isSecretEnvName, substituteEnv } from "@/lib/tools/substitute-env";

describe("substituteEnv", () => {
  it("replaces env placeholders once and keeps everything else as written", () => {
    expect(substituteEnv("{{env.BASE}}/x/{{q}}/{{ env.V }}{{bad", { BASE: "https://a.example", V: "1" }, "w")).toEqual({
      ok: true,
      text: "https://a.example/x/{{q}}/1{{bad",
    });
    // A value that looks like another env placeholder is not expanded again: it is refused.
    expect(substituteEnv("{{env.A}}", { A: "{{env.B}}", B: "x" }, "w")).toEqual({
      ok: false,
      problems: ["w: {{env.A}}: the value of A contains '{{', which would be read as a placeholder"],
    });
  });

  it("reports every unexposed, unset or secret-holding variable", () => {
    const r = substituteEnv(
      "{{env.A}}{{env.INSIKA_API_TOKEN}}{{env.constructor}}{{env.UNSET}}",
      { INSIKA_API_TOKEN: "t", UNSET: undefined },
      "request.url",
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toHaveLength(4);
    expect(r.problems[0]).toBe(
      "request.url: {{env.A}}: A is not exposed to manifests (list it in INSIKA_MANIFEST_ENV, the variables a manifest may read)",
    );
    expect(r.problems[1]).toMatch(/^request\.url: \{\{env\.INSIKA_API_TOKEN\}\} is not allowed/);
    expect(r.problems[2]).toContain("{{env.constructor}}: constructor is not exposed to manifests");
    expect(r.problems[3]).toBe("request.url: {{env.UNSET}}: environment variable UNSET is not set");
  });

  it("accepts an empty value as set", () => {
    expect(substituteEnv("a{{env.E}}b", { E: "" }, "w")).toEqual({ ok: true, text: "ab" });
  });
});

describe("isSecretEnvName", () => {
  it("matches INSIKA_SECRET_* and INSIKA_API_TOKEN in any case", () => {
    expect(isSecretEnvName("INSIKA_SECRET_X")).toBe(true);
    expect(isSecretEnvName("Insika_Provider_Secret_llm_key")).toBe(true);
    expect(isSecretEnvName("insika_api_token")).toBe(true);
    expect(isSecretEnvName("INSIKA_SECRETS_DIR")).toBe(false);
    expect(isSecretEnvName("API_TOKEN")).toBe(false);
  });
});

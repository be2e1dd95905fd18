import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  hasPlaceholderSyntax,
  listMalformedPlaceholders,
  listPlaceholders,
  splitTemplate,
  type TemplatePart,
} from "@/lib/tools/placeholders";

function source(parts: TemplatePart[]): string {
  return parts.map((p) => (p.type === "text" ? p.text : p.type === "placeholder" ? p.placeholder.raw : p.raw)).join("");
}

describe("splitTemplate", () => {
  it("splits literal text and the four placeholder kinds", () => {
    expect(splitTemplate("Bearer {{secret.api_token}}")).toEqual([
      { type: "text", text: "Bearer " },
      {
        type: "placeholder",
        placeholder: { raw: "{{secret.api_token}}", kind: "secret", namespace: "secret", name: "api_token" },
      },
    ]);
    const kinds = listPlaceholders("{{q}}/{{ctx.chat_id}}/{{env.API_URL}}/{{foo.bar}}").map((p) => [p.kind, p.name]);
    expect(kinds).toEqual([
      ["param", "q"],
      ["ctx", "chat_id"],
      ["env", "API_URL"],
      ["unknown", "bar"],
    ]);
  });

  it("allows whitespace just inside the braces", () => {
    expect(listPlaceholders("{{ q }} {{\tctx.tenant  }}")).toEqual([
      { raw: "{{ q }}", kind: "param", namespace: null, name: "q" },
      { raw: "{{\tctx.tenant  }}", kind: "ctx", namespace: "ctx", name: "tenant" },
    ]);
  });

  it("reports malformed and unclosed placeholders instead of passing them through", () => {
    expect(listMalformedPlaceholders("{{ctx.chat-id}} {{}} {{a.b.c}} {{ a b }}")).toEqual([
      "{{ctx.chat-id}}",
      "{{}}",
      "{{a.b.c}}",
      "{{ a b }}",
    ]);
    expect(splitTemplate("x {{secret.x} y")).toEqual([
      { type: "text", text: "x " },
      { type: "malformed", raw: "{{secret.x} y" },
    ]);
    expect(listPlaceholders("{{ctx . chat_id}}")).toEqual([]);
  });

  it("keeps a single brace and text without placeholders literal", () => {
    expect(splitTemplate('{"a": {"b": 1}}')).toEqual([{ type: "text", text: '{"a": {"b": 1}}' }]);
    expect(splitTemplate("")).toEqual([]);
    expect(splitTemplate("{{a}}}")).toEqual([
      { type: "placeholder", placeholder: { raw: "{{a}}", kind: "param", namespace: null, name: "a" } },
      { type: "text", text: "}" },
    ]);
  });

  it("does not treat inherited names as namespaces", () => {
    expect(listPlaceholders("{{constructor.x}}")[0]?.kind).toBe("unknown");
    expect(listPlaceholders("{{__proto__.x}}")[0]?.kind).toBe("unknown");
  });

  it("reproduces its input exactly and never throws", () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom("{{", "}}", "{{q}}", "{{ ctx.chat_id }}", "{{secret.x", "{", "}", "."),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        expect(source(splitTemplate(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});

describe("hasPlaceholderSyntax", () => {
  it("detects any opening braces", () => {
    expect(hasPlaceholderSyntax("a {{b")).toBe(true);
    expect(hasPlaceholderSyntax("a {b}")).toBe(false);
  });
});

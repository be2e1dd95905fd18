/**
 * The placeholder rules for one template string of a request (URL, a header
 * value, a query value, a body string). Where a placeholder may appear is a
 * security property: `{{secret.*}}` only where the trace masks it, `{{ctx.*}}`
 * only from the closed set the server fills, `{{param}}` only for declared
 * parameters so the model cannot inject an undeclared value.
 */
import { splitTemplate } from "./placeholders";
import { CTX_KEYS } from "./types";

/** What a template may reference, decided by where it sits in the request. */
export interface TemplateRules {
  /** Declared top-level parameter names; null skips the check (parameters were invalid). */
  paramNames: ReadonlySet<string> | null;
  /** True only for the value of a header listed in secret_headers. */
  secretAllowed: boolean;
  /** When set, each allowed secret reference must pass it (manifest path). */
  isSecretProvisioned?: (name: string) => boolean;
}

const SHAPES = "{{param}}, {{ctx.key}}, {{secret.name}} or {{env.NAME}}";

/**
 * Lists the problems of `text` under `rules`, each prefixed with `where`.
 * `{{env.*}}` is always reported: the manifest path substitutes it before
 * this check, so one that is still here was written on a path that does not
 * resolve it. Never throws.
 */
export function checkTemplate(text: string, where: string, rules: TemplateRules): string[] {
  const problems: string[] = [];
  for (const part of splitTemplate(text)) {
    if (part.type === "malformed") {
      const raw = part.raw.length > 60 ? `${part.raw.slice(0, 60)}…` : part.raw;
      problems.push(`${where}: malformed placeholder '${raw}' (expected ${SHAPES})`);
      continue;
    }
    if (part.type !== "placeholder") continue;
    const { kind, name, namespace, raw } = part.placeholder;
    switch (kind) {
      case "param":
        if (rules.paramNames !== null && !rules.paramNames.has(name)) {
          problems.push(`${where}: unknown placeholder {{${name}}}: not a declared top-level parameter`);
        }
        break;
      case "ctx":
        if (!(CTX_KEYS as readonly string[]).includes(name)) {
          problems.push(`${where}: unknown context key {{ctx.${name}}} (allowed: ${CTX_KEYS.join(", ")})`);
        }
        break;
      case "secret":
        if (!rules.secretAllowed) {
          problems.push(`${where}: {{secret.*}} is allowed only inside a header listed in secret_headers`);
        } else if (rules.isSecretProvisioned && !safeCall(rules.isSecretProvisioned, name)) {
          problems.push(
            `${where}: secret '${name}' is not provisioned (set INSIKA_SECRET_${name.toUpperCase()} or add '${name}' to INSIKA_SECRETS_DIR)`,
          );
        }
        break;
      case "env":
        problems.push(
          `${where}: {{env.${name}}} is resolved only on the manifest write path; write the value literally`,
        );
        break;
      default:
        problems.push(`${where}: unknown placeholder namespace '${namespace ?? ""}' in ${raw} (use ${SHAPES})`);
    }
  }
  return problems;
}

// A throwing callback counts as "not provisioned": refusing is the safe answer.
function safeCall(fn: (name: string) => boolean, name: string): boolean {
  try {
    return fn(name) === true;
  } catch {
    return false;
  }
}

/**
 * `{{env.NAME}}` substitution, done once at manifest ingestion (spec: "env
 * templating is manifest-only"). After it the stored row holds the literal
 * value, so the env var is read when the operator applies the manifest, not
 * at every call.
 */
import { splitTemplate } from "./placeholders";

/** The setting that lists the variables a manifest may read. */
export const MANIFEST_ENV_SETTING = "INSIKA_MANIFEST_ENV";

/** The substituted text, or every problem found (the text is then unusable). */
export type SubstituteEnvResult = { ok: true; text: string } | { ok: false; problems: string[] };

/**
 * True for env names that hold secrets. Substituting one would write the
 * secret into the stored row (DESIGN D3), so they are refused by name.
 */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    upper.startsWith("INSIKA_SECRET_") || upper.startsWith("INSIKA_PROVIDER_SECRET_") || upper === "INSIKA_API_TOKEN"
  );
}

/**
 * Replaces every `{{env.NAME}}` in `text` with `env[NAME]`, in one pass (a
 * value is never scanned again). `env` holds only the exposed variables (a
 * key per exposed name, undefined when unset). Problems, each prefixed with
 * `where`: a name that is not exposed, an unset variable, a secret-holding name, a value that itself contains `{{`
 * (it would be read as a placeholder later). Other parts are copied as they
 * are. Never throws.
 */
export function substituteEnv(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): SubstituteEnvResult {
  const problems: string[] = [];
  let out = "";
  for (const part of splitTemplate(text)) {
    if (part.type === "text") out += part.text;
    else if (part.type === "malformed") out += part.raw;
    else if (part.placeholder.kind !== "env") out += part.placeholder.raw;
    else {
      const name = part.placeholder.name;
      const exposed = Object.prototype.hasOwnProperty.call(env, name);
      const value = exposed ? env[name] : undefined;
      if (isSecretEnvName(name)) {
        problems.push(
          `${where}: {{env.${name}}} is not allowed: env may not name INSIKA_SECRET_*, INSIKA_PROVIDER_SECRET_* or INSIKA_API_TOKEN (that would put a secret on disk; use {{secret.*}} in a secret header)`,
        );
      } else if (!exposed) {
        problems.push(
          `${where}: {{env.${name}}}: ${name} is not exposed to manifests (list it in ${MANIFEST_ENV_SETTING}, the variables a manifest may read)`,
        );
      } else if (typeof value !== "string") {
        problems.push(`${where}: {{env.${name}}}: environment variable ${name} is not set`);
      } else if (value.includes("{{")) {
        problems.push(
          `${where}: {{env.${name}}}: the value of ${name} contains '{{', which would be read as a placeholder`,
        );
      } else {
        out += value;
      }
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, text: out };
}

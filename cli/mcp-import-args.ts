/**
 * The flags of `insika mcp import NAME URL`: `--header 'K: V'` (or `--header=K: V`),
 * repeatable, and the OAuth client-credentials trio. A refused flag is named, never echoed
 * with its value: a header value or an OAuth option is where a credential is typed.
 */

const OAUTH_FLAGS = {
  "--oauth-client-id": "client_id",
  "--oauth-client-secret": "client_secret",
  "--oauth-scope": "scope",
} as const;

type OAuthFlag = keyof typeof OAUTH_FLAGS;

export interface McpImportFlags {
  headers: Record<string, string>;
  auth?: Record<string, string>;
}

/** Reads the flags after NAME and URL; throws an Error naming the flag that is wrong. */
export function parseMcpImportFlags(args: readonly string[]): McpImportFlags {
  const headers: Record<string, string> = {};
  const oauth: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const flag = arg.split("=")[0] as string;
    const inline = arg.includes("=") ? arg.slice(flag.length + 1) : undefined;
    const value = () => inline ?? args[(i += 1)];
    if (Object.hasOwn(OAUTH_FLAGS, flag)) {
      const v = value();
      if (v === undefined) throw new Error(`${flag} needs a value`);
      oauth[OAUTH_FLAGS[flag as OAuthFlag]] = v;
      continue;
    }
    if (flag !== "--header") {
      const shown = flag.startsWith("--") ? `option '${flag}'` : `argument #${i + 3}`;
      throw new Error(`unexpected ${shown} (expected --header 'K: V' or --oauth-*)`);
    }
    const raw = value();
    if (raw === undefined) throw new Error("--header needs a value: 'Name: value'");
    const colon = raw.indexOf(":");
    if (colon <= 0) throw new Error("--header must look like 'Name: value' (the value given has no name before a ':')");
    headers[raw.slice(0, colon).trim()] = raw.slice(colon + 1).trim();
  }
  if (Object.keys(oauth).length === 0) return { headers };
  return { headers, auth: { type: "oauth_client_credentials", ...oauth } };
}

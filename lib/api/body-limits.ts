/**
 * How many bytes of request body each route reads before it answers 413 (docs/api.md
 * "Request bodies"). Counted in bytes on the wire, while streaming: a client cannot make
 * the server buffer more than the cap, whatever it sends or claims in Content-Length.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

export const BODY_LIMITS = {
  /** A tool or agent definition, a skill, a tool test, an MCP import. */
  default: 1 * MiB,
  /** Small control bodies: a session, an approval decision. */
  small: 64 * KiB,
  /** A turn's message (up to 200,000 characters, JSON-escaped). */
  turn: 2 * MiB,
  /** The OpenAI-compatible routes carry the whole conversation. */
  conversation: 8 * MiB,
  /** A manifest holds many tools. */
  manifest: 16 * MiB,
  /** An OpenAPI import may carry the document (at most 16 MiB, as a manifest). */
  openapi: 16 * MiB,
  /** The demo backend's fake store. */
  demo: 16 * KiB,
} as const;

/** Bodies nested deeper than this are refused before anything recurses over them. */
export const MAX_JSON_DEPTH = 64;

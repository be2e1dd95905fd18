// The Node flags the server process runs with (scripts/start.mjs; the tests' and benches'
// servers too, so they measure what production runs). One: a young generation of 64 MiB per
// semi-space instead of V8's 16. A turn allocates briefly and much (request and response
// objects, web streams, provider JSON); with the default, scavenges ran so often that short-
// lived objects were promoted and collected again by the old generation. Measured under the
// http-turn load (docs/decisions.md, perf): at 200 concurrent clients +20% turns/s, -22% p95,
// -14% CPU per turn; the resident set did not grow. An operator's own NODE_OPTIONS setting of
// it wins.
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=64"];

/** The flags for a server started with `nodeOptions` (NODE_OPTIONS): those it does not set itself. */
export function serverNodeFlags(nodeOptions = process.env.NODE_OPTIONS ?? "") {
  return SERVER_NODE_FLAGS.filter((flag) => !nodeOptions.includes(flag.split("=")[0]));
}

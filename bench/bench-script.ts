/**
 * Where a bench script is, in either form the benches run in: the TypeScript sources under
 * tsx (bench/NAME.ts), or compiled by bench/compile.mjs (.tmp/bench/NAME.mjs, what
 * `npm run bench` runs). The scripts started as processes of their own sit beside the module
 * that starts them in both.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(import.meta.url);

/** The file of bench script `name` in the form this process runs. */
export const benchScriptPath = (name: string) => path.join(path.dirname(here), `${name}${path.extname(here)}`);

/** Whether this process was started to run bench script `name` (either form). */
export const startedAs = (name: string) => {
  const main = process.argv[1];
  return main !== undefined && path.basename(main, path.extname(main)) === name;
};

// Copies Monaco's AMD build into public/monaco/vs so the Studio serves the editor
// itself (the default loader's CDN is unreachable). public/monaco is git-ignored.
// Run before `next build` (the "prebuild" script) and before `next dev`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const from = path.join(root, "node_modules", "monaco-editor", "min", "vs");
const to = path.join(root, "public", "monaco", "vs");

if (!fs.existsSync(path.join(from, "loader.js"))) {
  console.error(`copy-monaco: ${from} has no loader.js; is monaco-editor installed?`);
  process.exit(1);
}
const version = JSON.parse(
  fs.readFileSync(path.join(root, "node_modules", "monaco-editor", "package.json"), "utf8"),
).version;
const stamp = path.join(to, ".version");
if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === version) {
  console.log(`copy-monaco: public/monaco/vs already holds monaco-editor ${version}`);
  process.exit(0);
}
fs.rmSync(to, { recursive: true, force: true });
fs.mkdirSync(path.dirname(to), { recursive: true });
fs.cpSync(from, to, { recursive: true });
fs.writeFileSync(stamp, version);
console.log(`copy-monaco: copied monaco-editor ${version} to public/monaco/vs`);

// Every Studio page and server action checks the session itself: a layout's check does not
// run when Next renders a page without its layout (an RSC navigation), and an action is an
// endpoint of its own. Walks app/(studio), so a new page or action is covered automatically.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.join(process.cwd(), "app", "(studio)");

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** The first statement of each exported function declaration of a source file, by name. */
function exportedFunctions(file: string): Map<string, string> {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const found = new Map<string, string>();
  for (const statement of source.statements) {
    if (
      !ts.isFunctionDeclaration(statement) ||
      !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    )
      continue;
    found.set(statement.name?.text ?? "default", statement.body?.statements[0]?.getText(source) ?? "");
  }
  return found;
}

/** The first statement: the session check, its principal kept or not (`const actor = await requireStudioSession();`). */
const SESSION_CHECK = /^(const \w+ = )?await requireStudioSession\(\);$/;
/** A page's first statement: the session and scope check (requirePage), or the bare session check. */
const PAGE_CHECK = /^(const \w+ = )?await (requireStudioSession\(\)|requirePage\("[^"]+"(, [\w[\]":, ]+)?\));$/;

describe("Studio session checks", () => {
  const all = files(ROOT);

  it("every page awaits requireStudioSession() in its default export", () => {
    const pages = all.filter((f) => path.basename(f) === "page.tsx");
    expect(pages.length).toBeGreaterThan(10);
    const missing = pages.filter((f) => {
      const first = [...exportedFunctions(f).values()][0];
      return !PAGE_CHECK.test(first ?? "");
    });
    expect(missing.map((f) => path.relative(process.cwd(), f))).toEqual([]);
  });

  it("every exported server action awaits requireStudioSession() first", () => {
    const actions = all.filter((f) => /^["']use server["'];/.test(fs.readFileSync(f, "utf8")));
    expect(actions.length).toBeGreaterThan(3);
    const missing: string[] = [];
    for (const f of actions) {
      const source = fs.readFileSync(f, "utf8");
      for (const [name, first] of exportedFunctions(f)) {
        if (!SESSION_CHECK.test(first)) missing.push(`${path.relative(process.cwd(), f)}: ${name}`);
      }
      // No other kind of export (an arrow function would escape this check).
      expect(source, f).not.toMatch(/export (const|let|var) /);
    }
    expect(missing).toEqual([]);
  });
});

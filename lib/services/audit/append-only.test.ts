// The audit log is append-only through the product: no source file updates or deletes an
// audit_log row, and its one query module only inserts and selects.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["app", "lib", "db/queries", "cli", "components"];
const sources = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory()
            ? sources(path.join(dir, e.name))
            : /\.(ts|tsx)$/.test(e.name) && !e.name.includes(".test.")
              ? [path.join(dir, e.name)]
              : [],
        )
    : [];

describe("the audit log is append-only", () => {
  const files = ROOTS.flatMap(sources);

  it("no source file updates or deletes audit_log (drizzle or SQL)", () => {
    const offenders = files.filter((f) => {
      const text = fs.readFileSync(f, "utf8");
      return /\.(update|delete)\(\s*auditLog\b/.test(text) || /(update|delete\s+from)\s+["`']?audit_log\b/i.test(text);
    });
    expect(offenders).toEqual([]);
  });

  it("the audit-log queries only insert and select", () => {
    const text = fs.readFileSync("db/queries/audit-log.ts", "utf8");
    expect(text).toMatch(/\.insert\(auditLog\)/);
    expect(text).not.toMatch(/\.(update|delete)\(/);
    expect(text).not.toMatch(/sql`/);
  });

  it("only record-audit.ts writes an entry", () => {
    const writers = files.filter(
      (f) =>
        /insertAuditEntry\(/.test(fs.readFileSync(f, "utf8")) &&
        !f.endsWith(path.join("db", "queries", "audit-log.ts")),
    );
    expect(writers).toEqual([path.join("lib", "services", "audit", "record-audit.ts")]);
  });
});

import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { commitStatement } from "./postgres-commit-statement";

const text = (statement: ReturnType<typeof commitStatement>) =>
  statement === undefined ? undefined : new PgDialect().sqlToQuery(statement);

describe("commitStatement", () => {
  const insert = sql`insert into t (v) values (${"a"})`;
  const update = sql`update u set v = ${"b"}`;

  it("is nothing when nothing is held and nothing is told", () => {
    expect(commitStatement([], [])).toBeUndefined();
  });

  it("is a lone write as it is, and lone notifications as one pg_notify query", () => {
    expect(text(commitStatement([insert], []))).toMatchObject({ sql: "insert into t (v) values ($1)", params: ["a"] });
    expect(text(commitStatement([], [["ch", "p"]]))?.sql).toMatch(
      /^select pg_notify\(n->>0, n->>1\) from jsonb_array_elements/,
    );
  });

  it("puts every write in a WITH part of its own and the notifications last, each parameter in place", () => {
    const q = text(commitStatement([insert, update], [["ch", "x'y"]]));
    expect(q?.sql).toBe(
      "with w0 as (insert into t (v) values ($1)), w1 as (update u set v = $2) " +
        "select pg_notify(n->>0, n->>1) from jsonb_array_elements(cast($3 as text)::jsonb) as n",
    );
    expect(q?.params).toEqual(["a", "b", JSON.stringify([["ch", "x'y"]])]);
    expect(text(commitStatement([insert, update], []))?.sql).toMatch(/^with w0 as \(.*\), w1 as \(.*\) select 1$/);
  });
});

import { integer, text } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch; set by the application, so tests can use a clock. */
export const createdAt = () => integer("created_at", { mode: "number" }).notNull();
export const updatedAt = () => integer("updated_at", { mode: "number" }).notNull();

/** A JSON column typed by the caller. */
export const json = <T>(name: string) => text(name, { mode: "json" }).$type<T>();

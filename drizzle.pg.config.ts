// The PostgreSQL migrations: `npx drizzle-kit generate --config drizzle.pg.config.ts`.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/pg-schema.ts",
  out: "./db/migrations-pg",
});

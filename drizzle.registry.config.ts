import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/registry-schema.ts",
  out: "./migrations/registry",
});

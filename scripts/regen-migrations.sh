#!/usr/bin/env bash
# Development only, until the first release: regenerates the tenant and registry
# migrations from the *.tables.ts files as one initial migration each, then
# appends the hand-written SQL (FTS5 tables, the access epoch and triggers drizzle-kit cannot express).
# After a release, use `npm run db:generate` to add migrations instead.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf migrations/tenant migrations/registry
npx drizzle-kit generate --config drizzle.tenant.config.ts --name init >/dev/null
npx drizzle-kit generate --config drizzle.tenant.config.ts --custom --name search_fts >/dev/null
cp src/db/sql/search-fts.sql migrations/tenant/0001_search_fts.sql
npx drizzle-kit generate --config drizzle.tenant.config.ts --custom --name access_epoch >/dev/null
cp src/db/sql/access-epoch.sql migrations/tenant/0002_access_epoch.sql
npx drizzle-kit generate --config drizzle.registry.config.ts --name init >/dev/null
ls migrations/tenant migrations/registry

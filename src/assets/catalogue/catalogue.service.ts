// The catalogue: categories and the models in them, and GET /catalog over both. Other
// modules check the categories and models a request names through requireCategory and
// requireModel, so "unknown" and "archived" mean the same everywhere.
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, withTx, writer, type Querier } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { insertRecord, loadOr404, requireActive, updateVersioned } from "../../platform/db/records.ts";
import { catalogCategories, catalogModels } from "./catalogue.tables.ts";
import type {
  CatalogCategoryDetailDto,
  CatalogCategoryDto,
  CatalogModelDto,
  CatalogQuery,
  CreateCatalogCategory,
  CreateCatalogModel,
  UpdateCatalogCategory,
  UpdateCatalogModel,
} from "./catalogue.schemas.ts";

export type CategoryRow = typeof catalogCategories.$inferSelect;
export type ModelRow = typeof catalogModels.$inferSelect;

export function toCategoryDto(r: CategoryRow): CatalogCategoryDto {
  const { id, status, version, createdAt, updatedAt, createdBy, name, code } = r;
  return { id, status, version, createdAt, updatedAt, createdBy, name, code };
}

export function toModelDto(r: ModelRow): CatalogModelDto {
  const { id, status, version, createdAt, updatedAt, createdBy, name, categoryId, manufacturer, modelNumber } = r;
  return { id, status, version, createdAt, updatedAt, createdBy, name, categoryId, manufacturer, modelNumber };
}

// ---------------------------------------------------------------- references

/**
 * The check other modules use for a category id named in a request body: a missing or
 * archived category is a 400 at `path` (e.g. `/body/categoryId`), never a 404.
 * Reads through the context (the open transaction, if any).
 */
export const requireCategory = (ctx: TenantCtx, id: string, path: string): Promise<CategoryRow> =>
  requireActive(ctx, catalogCategories, id, path, "category");

/** As requireCategory, for a model id (e.g. `/body/modelId`). */
export const requireModel = (ctx: TenantCtx, id: string, path: string): Promise<ModelRow> => requireActive(ctx, catalogModels, id, path, "model");

/** The model with this id and its category, whatever its status; undefined when there is none. */
export async function findModel(ctx: TenantCtx, id: string): Promise<{ id: string; categoryId: string } | undefined> {
  return (await db(ctx).select({ id: catalogModels.id, categoryId: catalogModels.categoryId }).from(catalogModels).where(eq(catalogModels.id, id)))[0];
}

/** Active categories whose code or name equals one of `keys` ignoring case (keys lower-cased): imports resolve names through it. */
export async function activeCategoriesNamed(ctx: TenantCtx, keys: string[]): Promise<CategoryRow[]> {
  if (keys.length === 0) return [];
  return db(ctx)
    .select()
    .from(catalogCategories)
    .where(and(eq(catalogCategories.status, "active"), or(inArray(sql`lower(${catalogCategories.code})`, keys), inArray(sql`lower(${catalogCategories.name})`, keys))));
}

/** Active models whose name equals one of `keys` ignoring case (keys lower-cased), in any category. */
export async function activeModelsNamed(ctx: TenantCtx, keys: string[]): Promise<ModelRow[]> {
  if (keys.length === 0) return [];
  return db(ctx).select().from(catalogModels).where(and(eq(catalogModels.status, "active"), inArray(sql`lower(${catalogModels.name})`, keys)));
}

// ---------------------------------------------------------------- categories

async function assertCategoryCodeFree(ctx: TenantCtx, code: string, exceptId?: string): Promise<void> {
  const clash = (await writer(ctx).select({ id: catalogCategories.id }).from(catalogCategories).where(eq(catalogCategories.code, code)))[0];
  if (clash && clash.id !== exceptId) throw new AppError("duplicate", `category code ${JSON.stringify(code)} is already in use`);
}

export async function createCategory(ctx: RequestCtx, input: CreateCatalogCategory): Promise<CatalogCategoryDto> {
  return withTx(ctx, async (ctx) => {
    if (input.code !== undefined) await assertCategoryCodeFree(ctx, input.code);
    return toCategoryDto(await insertRecord(ctx, catalogCategories, { name: input.name, code: input.code ?? null }));
  });
}

const byName = (name: SQLiteColumn, id: SQLiteColumn) => [
  asc(sql`${name} COLLATE NOCASE`),
  asc(id),
];

export async function getCategory(ctx: RequestCtx, id: string): Promise<CatalogCategoryDetailDto> {
  const [rows, models] = await readSnapshot(ctx, (q) => [
    q.select().from(catalogCategories).where(eq(catalogCategories.id, id)),
    q.select().from(catalogModels).where(eq(catalogModels.categoryId, id)).orderBy(...byName(catalogModels.name, catalogModels.id)),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("category");
  return { ...toCategoryDto(row), models: models.map(toModelDto) };
}

export async function updateCategory(ctx: RequestCtx, id: string, input: UpdateCatalogCategory): Promise<CatalogCategoryDto> {
  const row = await updateVersioned(ctx, catalogCategories, id, "category", input, {
    async rules(ctx, _row, change) {
      if (change.code) await assertCategoryCodeFree(ctx, change.code, id);
      if (change.status === "archived") {
        const live = await writer(ctx)
          .select({ id: catalogModels.id })
          .from(catalogModels)
          .where(and(eq(catalogModels.categoryId, id), eq(catalogModels.status, "active")))
          .limit(1);
        if (live.length) throw new AppError("state_conflict", "the category still has active models; archive or move them first");
      }
    },
  });
  return toCategoryDto(row);
}

// ---------------------------------------------------------------- models

export async function createModel(ctx: RequestCtx, input: CreateCatalogModel): Promise<CatalogModelDto> {
  return withTx(ctx, async (ctx) => {
    await requireCategory(ctx, input.categoryId, "/body/categoryId");
    const { name, categoryId } = input;
    return toModelDto(await insertRecord(ctx, catalogModels, { name, categoryId, manufacturer: input.manufacturer ?? null, modelNumber: input.modelNumber ?? null }));
  });
}

export async function getModel(ctx: RequestCtx, id: string): Promise<CatalogModelDto> {
  return toModelDto(await loadOr404(db(ctx), catalogModels, id, "model"));
}

export async function updateModel(ctx: RequestCtx, id: string, input: UpdateCatalogModel): Promise<CatalogModelDto> {
  const row = await updateVersioned(ctx, catalogModels, id, "model", input, {
    async validate(ctx, _row, change) {
      if (change.categoryId) await requireCategory(ctx, change.categoryId, "/body/categoryId");
    },
    async rules(ctx, row, change) {
      if (change.status === "active" && change.categoryId === undefined) {
        const category = await loadOr404(writer(ctx), catalogCategories, row.categoryId, "category");
        if (category.status !== "active") throw new AppError("state_conflict", "the model's category is archived; unarchive it first");
      }
    },
  });
  return toModelDto(row);
}

// ---------------------------------------------------------------- the catalogue

/** GET /catalog: every category with its models, both by name, read in one snapshot. */
export async function getCatalog(ctx: RequestCtx, q: CatalogQuery): Promise<{ items: CatalogCategoryDetailDto[] }> {
  const cats = (qr: Querier) =>
    qr
      .select()
      .from(catalogCategories)
      .where(q.status?.length ? inArray(catalogCategories.status, q.status) : undefined)
      .orderBy(...byName(catalogCategories.name, catalogCategories.id));
  const mods = (qr: Querier) =>
    qr
      .select()
      .from(catalogModels)
      .where(q.status?.length ? inArray(catalogModels.status, q.status) : undefined)
      .orderBy(...byName(catalogModels.name, catalogModels.id));
  // One snapshot: no model without its category.
  const [categoryRows, modelRows] = await readSnapshot(ctx, (qr) => [cats(qr), mods(qr)] as const);
  const byCategory = new Map<string, CatalogModelDto[]>();
  for (const m of modelRows) {
    const list = byCategory.get(m.categoryId) ?? [];
    list.push(toModelDto(m));
    byCategory.set(m.categoryId, list);
  }
  return { items: categoryRows.map((c) => ({ ...toCategoryDto(c), models: byCategory.get(c.id) ?? [] })) };
}

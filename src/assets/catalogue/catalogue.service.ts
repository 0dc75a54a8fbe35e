// The catalogue: categories and the models in them, and GET /catalog over both
// (categories paged, each embedding a bounded list of its models). Other
// modules check the categories and models a request names through requireCategory and
// requireModel, so "unknown" and "archived" mean the same everywhere.
import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, withTx, writer } from "../../platform/db/transactions.ts";
import { FilterSet, paginate, updatedOrder, type Page } from "../../platform/paging/paging.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { visibleRows } from "../../platform/db/pending.ts";
import { insertRecord, loadOr404, requireActive, updateVersioned } from "../../platform/db/records.ts";
import { catalogCategories, catalogModels } from "./catalogue.tables.ts";
import { MODELS_PER_CATEGORY } from "./catalogue.schemas.ts";
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
  return (await db(ctx).select({ id: catalogModels.id, categoryId: catalogModels.categoryId }).from(catalogModels).where(and(eq(catalogModels.id, id), visibleRows(catalogModels, ctx))))[0];
}

/** Active categories whose code or name equals one of `keys` ignoring case (keys lower-cased): imports resolve names through it. */
export async function activeCategoriesNamed(ctx: TenantCtx, keys: string[]): Promise<CategoryRow[]> {
  if (keys.length === 0) return [];
  return db(ctx)
    .select()
    .from(catalogCategories)
    .where(
      and(
        eq(catalogCategories.status, "active"),
        or(inArray(sql`lower(${catalogCategories.code})`, keys), inArray(sql`lower(${catalogCategories.name})`, keys)),
        visibleRows(catalogCategories, ctx),
      ),
    );
}

/** Active models whose name equals one of `keys` ignoring case (keys lower-cased), in any category. */
export async function activeModelsNamed(ctx: TenantCtx, keys: string[]): Promise<ModelRow[]> {
  if (keys.length === 0) return [];
  return db(ctx)
    .select()
    .from(catalogModels)
    .where(and(eq(catalogModels.status, "active"), inArray(sql`lower(${catalogModels.name})`, keys), visibleRows(catalogModels, ctx)));
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

/** GET /catalog/categories/{id}: the category with its first MODELS_PER_CATEGORY models by name and their exact count. */
export async function getCategory(ctx: RequestCtx, id: string): Promise<CatalogCategoryDetailDto> {
  const [rows, models, counted] = await readSnapshot(ctx, (q) => [
    q.select().from(catalogCategories).where(and(eq(catalogCategories.id, id), visibleRows(catalogCategories))),
    q
      .select()
      .from(catalogModels)
      .where(and(eq(catalogModels.categoryId, id), visibleRows(catalogModels)))
      .orderBy(...byName(catalogModels.name, catalogModels.id))
      .limit(MODELS_PER_CATEGORY),
    q.select({ n: count() }).from(catalogModels).where(and(eq(catalogModels.categoryId, id), visibleRows(catalogModels))),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("category");
  return toCategoryDetail(row, models, Number(counted[0]?.n ?? 0));
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

/**
 * Where a category's models are read under the status filter (none: every status).
 * Built with eq(), whose columns render table-qualified, so inside the correlated
 * subqueries below it names the outer category row unambiguously.
 */
const modelsOf = (categoryId: SQL | SQLiteColumn, status: CatalogQuery["status"]) =>
  and(eq(catalogModels.categoryId, categoryId), status?.length ? inArray(catalogModels.status, status) : undefined);

/**
 * The category's first MODELS_PER_CATEGORY models by name as one JSON array, and
 * their exact count: correlated subqueries of the category row, so a page of
 * categories and every model it embeds come from one statement (one snapshot).
 */
function embeddedModels(status: CatalogQuery["status"]) {
  const m = catalogModels;
  const first = sql`SELECT json_object('id', ${m.id}, 'status', ${m.status}, 'version', ${m.version}, 'createdAt', ${m.createdAt},
      'updatedAt', ${m.updatedAt}, 'createdBy', ${m.createdBy}, 'name', ${m.name}, 'categoryId', ${m.categoryId},
      'manufacturer', ${m.manufacturer}, 'modelNumber', ${m.modelNumber},
      'n', row_number() OVER (ORDER BY ${m.name} COLLATE NOCASE, ${m.id})) AS model
    FROM ${m} WHERE ${modelsOf(catalogCategories.id, status)}
    ORDER BY ${m.name} COLLATE NOCASE, ${m.id} LIMIT ${MODELS_PER_CATEGORY}`;
  return {
    models: sql<string>`(SELECT json_group_array(json(model)) FROM (${first}))`,
    modelCount: sql<number>`(SELECT count(*) FROM ${m} WHERE ${modelsOf(catalogCategories.id, status)})`,
  };
}

function toCategoryDetail(row: CategoryRow, models: ModelRow[], modelCount: number): CatalogCategoryDetailDto {
  return { ...toCategoryDto(row), models: models.map(toModelDto), modelCount, modelsTruncated: modelCount > models.length };
}

/**
 * GET /catalog: the categories as a list of contract §7 (newest change first, exact
 * total, signed cursor), each embedding at most MODELS_PER_CATEGORY of its models by
 * name with their exact count; the status filter applies to both.
 */
export async function getCatalog(ctx: RequestCtx, q: CatalogQuery): Promise<Page<CatalogCategoryDetailDto>> {
  const filters = new FilterSet().add("status", q.status, (v) => inArray(catalogCategories.status, v));
  const embedded = embeddedModels(q.status);
  return paginate(
    ctx,
    {
      filters: filters.applied,
      limit: q.limit,
      cursor: q.cursor,
      ...updatedOrder(catalogCategories),
      page: (qr, where, orderBy, limit) =>
        qr
          .select({ category: catalogCategories, ...embedded })
          .from(catalogCategories)
          .where(and(where, visibleRows(catalogCategories)))
          .orderBy(...orderBy)
          .limit(limit),
      position: (r) => ({ t: r.category.updatedAt, i: r.category.id }),
      where: filters.where(),
    },
    (r) => {
      const models = (JSON.parse(r.models) as Array<ModelRow & { n: number }>).sort((a, b) => a.n - b.n);
      return toCategoryDetail(r.category, models, Number(r.modelCount));
    },
  );
}

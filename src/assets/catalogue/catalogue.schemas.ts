// Request and response schemas of the catalogue: categories and their models.
import { z } from "@hono/zod-openapi";
import { Id, ExpectedVersion, freeText, RECORD_STATUSES, RecordStatus, ArchivableRecordMeta } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";

const Name = freeText(200);
const Code = freeText(64);
const ShortText = freeText(200);

export const CatalogModel = z
  .object({
    ...ArchivableRecordMeta,
    name: z.string(),
    categoryId: z.string(),
    manufacturer: z.string().nullable(),
    modelNumber: z.string().nullable(),
  })
  .openapi("CatalogModel");
export type CatalogModelDto = z.infer<typeof CatalogModel>;

export const CatalogCategory = z
  .object({
    ...ArchivableRecordMeta,
    name: z.string(),
    code: z.string().nullable().openapi({ description: "Short code, unique per partner when set." }),
  })
  .openapi("CatalogCategory");
export type CatalogCategoryDto = z.infer<typeof CatalogCategory>;

/** Models a category embeds at most (GET /catalog, GET /catalog/categories/{id}); the rest page through /settings/records. */
export const MODELS_PER_CATEGORY = 200;

export const CatalogCategoryDetail = z
  .object({
    ...CatalogCategory.shape,
    models: z.array(CatalogModel).openapi({
      description:
        `The category's models by name (case-insensitive, then id), at most the first ${MODELS_PER_CATEGORY}. ` +
        "All of them page through `GET /settings/records?recordType=catalog&kind=model&parentId=<category id>`.",
    }),
    modelCount: z.number().int().openapi({ description: "Exact number of the category's models (under the same status filter), embedded or not." }),
    modelsTruncated: z.boolean().openapi({ description: `True when the category has more than ${MODELS_PER_CATEGORY} models, so \`models\` is not all of them.` }),
  })
  .openapi("CatalogCategoryDetail");
export type CatalogCategoryDetailDto = z.infer<typeof CatalogCategoryDetail>;

export const Catalog = listEnvelope(CatalogCategoryDetail, "Catalog");

export const CatalogQuery = z.strictObject({
  status: csvEnum(RECORD_STATUSES).openapi({
    type: "string",
    description: "Comma-separated: active, archived. Applies to categories and their embedded models alike; absent means both.",
  }),
  ...PageQueryShape,
});
export type CatalogQuery = z.output<typeof CatalogQuery>;

export const CreateCatalogCategory = z.strictObject({ name: Name, code: Code.optional() }).openapi("CreateCatalogCategory");
export type CreateCatalogCategory = z.output<typeof CreateCatalogCategory>;

export const UpdateCatalogCategory = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    name: Name.optional(),
    code: Code.nullable().optional(),
    status: RecordStatus.optional().openapi({ description: "A category with active models cannot be archived (409 state_conflict)." }),
  })
  .openapi("UpdateCatalogCategory");
export type UpdateCatalogCategory = z.output<typeof UpdateCatalogCategory>;

export const CreateCatalogModel = z
  .strictObject({
    name: Name,
    categoryId: Id.openapi({ description: "An active category." }),
    manufacturer: ShortText.optional(),
    modelNumber: ShortText.optional(),
  })
  .openapi("CreateCatalogModel");
export type CreateCatalogModel = z.output<typeof CreateCatalogModel>;

export const UpdateCatalogModel = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    name: Name.optional(),
    categoryId: Id.optional(),
    manufacturer: ShortText.nullable().optional(),
    modelNumber: ShortText.nullable().optional(),
    status: RecordStatus.optional(),
  })
  .openapi("UpdateCatalogModel");
export type UpdateCatalogModel = z.output<typeof UpdateCatalogModel>;

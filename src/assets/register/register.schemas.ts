import { z } from "@hono/zod-openapi";
import { Id } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape, MAX_TEXT_FILTER } from "../../platform/paging/paging.ts";
import { hasSearchWord, NO_SEARCH_WORDS, WordFilter, WORD_FILTER_NOTE } from "../../platform/search/word-filter.ts";
import { AVAILABILITIES, CONDITIONS, Item, LIFECYCLES, QUALITY_STATUSES } from "../kernel/index.ts";

/** Query of GET /owned and GET /loaned (spec: "Overview and register"). */
export const RegisterListQuery = z.strictObject({
  q: WordFilter.openapi({
    type: "string",
    maxLength: MAX_TEXT_FILTER,
    description:
      "Free text, at most 200 characters. Every word must match (as a prefix) the item's name or serial number, or the value, " +
      `Digital Link or EPC URI of one of its identifiers. Punctuation separates words. ${WORD_FILTER_NOTE}`,
  }),
  lifecycle: csvEnum(LIFECYCLES),
  condition: csvEnum(CONDITIONS),
  qualityStatus: csvEnum(QUALITY_STATUSES),
  availability: csvEnum(AVAILABILITIES),
  categoryId: Id.optional(),
  locationId: Id.optional().openapi({
    description: "Items at this location or anywhere below it in the location tree (a site includes its buildings, rooms and bins).",
  }),
  ...PageQueryShape,
});
export type RegisterListQuery = z.output<typeof RegisterListQuery>;

export const ItemList = listEnvelope(Item, "ItemList");

const countsOf = <T extends readonly string[]>(keys: T) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<T[number], z.ZodNumber>);

export const Summary = z
  .object({
    totalItems: z.number().int().openapi({ description: "Every item of the partner, owned and external, in any lifecycle." }),
    byLifecycle: countsOf(LIFECYCLES).openapi({ description: "Items per lifecycle state; every state is present, summing to totalItems." }),
    byAvailability: countsOf(AVAILABILITIES).openapi({ description: "Items per availability; every value is present, summing to totalItems." }),
    overdueCheckouts: z.number().int().openapi({ description: "Checkouts in state checked_out whose dueAt is before asOf." }),
    inTransit: z.number().int().openapi({ description: "Items whose availability is in_transit." }),
    openWorkOrders: z
      .number()
      .int()
      .openapi({ description: "Work orders neither completed nor cancelled (open, in_progress or paused)." }),
    asOf: z.string().openapi({ format: "date-time", description: "Server time the counts were read at (one read snapshot)." }),
  })
  .openapi("AssetSummary");
export type Summary = z.infer<typeof Summary>;

export const SearchQuery = z.strictObject({
  q: z
    .string()
    .trim()
    .min(1)
    .max(MAX_TEXT_FILTER)
    .refine(hasSearchWord, NO_SEARCH_WORDS)
    .openapi({ description: `1–200 characters; every word must match as a prefix. Text without letters or digits is 400 validation_failed ("${NO_SEARCH_WORDS}").` }),
});

export const SEARCH_TYPES = ["item", "identifier", "location", "party"] as const;
export const SEARCH_LIMIT = 50;

export const SearchHit = z
  .object({
    type: z.enum(SEARCH_TYPES),
    id: z.string(),
    title: z.string().openapi({ description: "Item, location or party name; an identifier's canonical value" }),
    subtitle: z
      .string()
      .optional()
      .openapi({ description: "Item: serial number; identifier: scheme and item name; location: code or kind; party: external reference or kind" }),
    itemId: z.string().optional().openapi({ description: "The item an item or identifier hit leads to" }),
    rank: z.number().int().openapi({ description: "Position in the result, 1 = most relevant" }),
    score: z.number().openapi({ description: "FTS5 BM25 relevance (higher is more relevant); comparable within one response only" }),
  })
  .openapi("SearchHit");

export const SearchResult = z.object({ items: z.array(SearchHit) }).openapi("SearchResult");
export type SearchHit = z.infer<typeof SearchHit>;

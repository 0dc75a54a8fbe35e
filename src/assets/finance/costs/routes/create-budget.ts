import { defineRoute } from "../../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../../platform/http/common-schemas.ts";
import { Budget, CreateBudget } from "../costs.schemas.ts";
import { createBudget as create } from "../costs.service.ts";

export const createBudget = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/budgets",
  operationId: "createBudget",
  summary: "Create a budget for a period, optionally per category and location",
  description:
    "A spending limit (`amount`, in the book's currency) for a period of the book, narrowed to assets of `categoryId` and/or at `locationId` when given; one per period, category and location (409 duplicate). " +
    "Answers it with `actual`: capital spend (acquisition and addition entries valued in the period, net of reversals) plus lifecycle costs incurred in the period in the book's currency, of owned assets in scope by their current category and location; variance = amount − actual.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  body: CreateBudget,
  file: import.meta.path,
  responses: { 201: { description: "The budget with its actual", schema: Budget, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const budget = await create(ctx, body);
    return { status: 201, body: budget, headers: { Location: `/api/assets/finance/budgets/${budget.id}?partnerId=${query.partnerId}` } };
  },
});

// Component replacement (issue 10, part 4): a depreciation profile with a componentName is a
// component of its asset; replacing it derecognises the old and capitalises the new.
import { z } from "@hono/zod-openapi";
import { CalendarDate, ExpectedVersion, Id, freeText, orNull } from "../../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../../platform/money/money.ts";
import { Decimal } from "../finance.schemas.ts";
import { DepreciationProfile } from "../depreciation/depreciation.schemas.ts";
import { ValueEntry } from "../value-entries/entries.schemas.ts";

export const ReplaceComponent = z
  .strictObject({
    expectedVersion: ExpectedVersion.optional().openapi({ description: "The replaced component profile's version" }),
    periodId: Id.openapi({ description: "An open period of the profile's book containing valueDate" }),
    valueDate: CalendarDate,
    cost: Money.openapi({ description: "The new component's cost, capitalised as an addition (book currency)" }),
    residualValue: Money.optional().openapi({ description: "The new component's residual value; default zero" }),
    usefulLifeMonths: z.number().int().min(1).max(1200).optional().openapi({ description: "The new component's useful life; default the replaced profile's" }),
    unitsPlan: z.array(Decimal("units")).max(1200).optional().openapi({ description: "units_of_production only: expected units per month of the new component's life" }),
    componentName: freeText(100).optional().openapi({ description: "Default the replaced component's name" }),
    reason: freeText(1000, { multiline: true }),
  })
  .openapi("ReplaceComponent");

export const ComponentReplacement = z
  .object({
    replaced: DepreciationProfile.openapi({ description: "The old component's profile, now replaced" }),
    replacement: DepreciationProfile.openapi({ description: "The new component's profile, starting the month after valueDate" }),
    carryingAmount: MoneyOut.openapi({ description: "Derecognised: the old component's cost less the depreciation posted for it" }),
    derecognition: orNull(ValueEntry).openapi({ description: "The disposal credit of the carrying amount (none when it is zero)" }),
    addition: ValueEntry.openapi({ description: "The addition debit of the new component's cost" }),
  })
  .openapi("ComponentReplacement");

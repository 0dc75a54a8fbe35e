// IFRS Accounting Taxonomy: the property, plant and equipment reconciliation
// (IAS 16.73(e)) as an xBRL-JSON report, one fact per line of the rollforward
// totals, tagged with ifrs-full element names.
import { fixed, type Dec } from "../depreciation/schedule.ts";
import type { AdapterInput } from "./adapter-input.ts";

export const IFRS_ELEMENTS = {
  opening: "ifrs-full:PropertyPlantAndEquipment",
  additions: "ifrs-full:AdditionsOtherThanThroughBusinessCombinationsPropertyPlantAndEquipment",
  depreciation: "ifrs-full:DepreciationPropertyPlantAndEquipment",
  impairments: "ifrs-full:ImpairmentLossRecognisedInProfitOrLossPropertyPlantAndEquipment",
  disposals: "ifrs-full:DisposalsPropertyPlantAndEquipment",
  change: "ifrs-full:IncreaseDecreaseInPropertyPlantAndEquipment",
  closing: "ifrs-full:PropertyPlantAndEquipment",
} as const;

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

export function ifrsReport(a: AdapterInput): string {
  const t = a.rollforward.totals;
  const start = `${a.rollforward.openingDate}T00:00:00`;
  const end = `${dayAfter(a.asOf)}T00:00:00`;
  const base = { entity: `urn:ams:partner:${a.partnerId}`, unit: `iso4217:${a.book.functionalCurrency}` };
  const fact = (concept: string, value: Dec, period: string) => ({
    value: fixed(value, a.digits),
    decimals: a.digits,
    dimensions: { concept, period, ...base },
  });
  const facts = {
    opening: fact(IFRS_ELEMENTS.opening, t.opening, start),
    additions: fact(IFRS_ELEMENTS.additions, t.additions, `${start}/${end}`),
    depreciation: fact(IFRS_ELEMENTS.depreciation, t.depreciation, `${start}/${end}`),
    impairments: fact(IFRS_ELEMENTS.impairments, t.impairments, `${start}/${end}`),
    disposals: fact(IFRS_ELEMENTS.disposals, t.disposals, `${start}/${end}`),
    change: fact(IFRS_ELEMENTS.change, t.closing.minus(t.opening), `${start}/${end}`),
    closing: fact(IFRS_ELEMENTS.closing, t.closing, end),
  };
  return JSON.stringify(
    {
      documentInfo: {
        documentType: "https://xbrl.org/2021/xbrl-json",
        namespaces: {
          "ifrs-full": "https://xbrl.ifrs.org/taxonomy/2024-03-27/ifrs-full",
          iso4217: "http://www.xbrl.org/2003/iso4217",
          ams: "urn:ams:finance",
        },
        taxonomy: ["https://xbrl.ifrs.org/taxonomy/2024-03-27/full_ifrs_entry_point_2024-03-27.xsd"],
        "ams:mappingVersion": a.mappingVersion,
        "ams:disclaimer": a.disclaimer,
        "ams:book": { id: a.book.id, name: a.book.name },
      },
      facts,
    },
    null,
    2,
  );
}

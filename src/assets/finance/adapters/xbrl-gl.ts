// XBRL GL (gl-cor) instance: each value entry is one entryHeader with two
// balanced entryDetail lines, the asset-side account on the entry's side and
// its counter-account on the other, so debits equal credits per entry and in all.
import { xmlEscape, type AdapterInput } from "./adapter-input.ts";
import type { EntryRow } from "../value-entries/entries.service.ts";

/** Chart used by the mapping: [asset-side account, counter-account] per kind. */
export const ACCOUNTS: Record<EntryRow["kind"], [string, string, string, string]> = {
  acquisition: ["PPE-COST", "Property, plant and equipment at cost", "PPE-CLEARING", "Asset acquisition clearing"],
  addition: ["PPE-COST", "Property, plant and equipment at cost", "PPE-CLEARING", "Asset acquisition clearing"],
  disposal: ["PPE-COST", "Property, plant and equipment at cost", "PPE-DISPOSAL", "Disposal of property, plant and equipment"],
  depreciation: ["PPE-ACC-DEPR", "Accumulated depreciation", "DEPR-EXPENSE", "Depreciation expense"],
  impairment: ["PPE-ACC-IMP", "Accumulated impairment", "IMPAIRMENT-LOSS", "Impairment loss recognised in profit or loss"],
};

export function xbrlGlInstance(a: AdapterInput): string {
  const c = `contextRef="now"`;
  const cur = a.book.functionalCurrency;
  const detail = (n: number, account: string, description: string, amount: string, dc: "D" | "C", date: string) => `      <gl-cor:entryDetail>
        <gl-cor:lineNumber ${c}>${n}</gl-cor:lineNumber>
        <gl-cor:account>
          <gl-cor:accountMainID ${c}>${account}</gl-cor:accountMainID>
          <gl-cor:accountMainDescription ${c}>${xmlEscape(description)}</gl-cor:accountMainDescription>
          <gl-cor:accountType ${c}>account</gl-cor:accountType>
        </gl-cor:account>
        <gl-cor:amount ${c} unitRef="${cur}" decimals="${a.digits}">${amount}</gl-cor:amount>
        <gl-cor:debitCreditCode ${c}>${dc}</gl-cor:debitCreditCode>
        <gl-cor:postingDate ${c}>${date}</gl-cor:postingDate>
      </gl-cor:entryDetail>`;
  const headers = a.entries.map((e) => {
    const [assetAcc, assetDesc, counterAcc, counterDesc] = ACCOUNTS[e.kind];
    const assetDc = e.side === "debit" ? "D" : "C";
    const counterDc = assetDc === "D" ? "C" : "D";
    return `    <gl-cor:entryHeader>
      <gl-cor:postedDate ${c}>${e.valueDate}</gl-cor:postedDate>
      <gl-cor:enteredBy ${c}>${xmlEscape(e.createdBy)}</gl-cor:enteredBy>
      <gl-cor:enteredDate ${c}>${e.createdAt.slice(0, 10)}</gl-cor:enteredDate>
      <gl-cor:sourceJournalID ${c}>fa</gl-cor:sourceJournalID>
      <gl-cor:entryType ${c}>${e.reversesEntryId ? "reversing" : "standard"}</gl-cor:entryType>
      <gl-cor:entryNumber ${c}>${xmlEscape(e.id)}</gl-cor:entryNumber>
      <gl-cor:entryComment ${c}>${xmlEscape(`${e.kind} of item ${e.itemId}${e.reversesEntryId ? `, reversing ${e.reversesEntryId}` : ""}`)}</gl-cor:entryComment>
${detail(1, assetAcc, assetDesc, e.amount, assetDc, e.valueDate)}
${detail(2, counterAcc, counterDesc, e.amount, counterDc, e.valueDate)}
    </gl-cor:entryHeader>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Mapping version: ${xmlEscape(a.mappingVersion)}. ${xmlEscape(a.disclaimer)} -->
<xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:gl-cor="http://www.xbrl.org/int/gl/cor/2006-10-25">
  <link:schemaRef xlink:type="simple" xlink:href="http://www.xbrl.org/int/gl/cor/2006-10-25/gl-cor-content-2006-10-25.xsd"/>
  <xbrli:context id="now">
    <xbrli:entity>
      <xbrli:identifier scheme="urn:ams:partner">${xmlEscape(a.partnerId)}</xbrli:identifier>
    </xbrli:entity>
    <xbrli:period>
      <xbrli:instant>${a.asOf}</xbrli:instant>
    </xbrli:period>
  </xbrli:context>
  <xbrli:unit id="${cur}">
    <xbrli:measure>iso4217:${cur}</xbrli:measure>
  </xbrli:unit>
  <gl-cor:accountingEntries>
    <gl-cor:documentInfo>
      <gl-cor:entriesType ${c}>journal</gl-cor:entriesType>
      <gl-cor:uniqueID ${c}>${xmlEscape(`${a.book.id}:${a.asOf}`)}</gl-cor:uniqueID>
      <gl-cor:language ${c}>lang:en</gl-cor:language>
      <gl-cor:creationDate ${c}>${a.issuedOn}</gl-cor:creationDate>
      <gl-cor:entriesComment ${c}>${xmlEscape(`Mapping version: ${a.mappingVersion}. ${a.disclaimer}`)}</gl-cor:entriesComment>
      <gl-cor:periodCoveredStart ${c}>${a.rollforward.openingDate}</gl-cor:periodCoveredStart>
      <gl-cor:periodCoveredEnd ${c}>${a.asOf}</gl-cor:periodCoveredEnd>
    </gl-cor:documentInfo>
${headers.join("\n")}
  </gl-cor:accountingEntries>
</xbrli:xbrl>
`;
}

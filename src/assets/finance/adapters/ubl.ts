// UBL 2.3 Statement: the book is the account, each value entry a statement line
// (debit or credit on the carrying amount), preceded by the balance brought
// forward at the start of the fiscal year; the balance runs through the lines.
import { Dec, fixed } from "../depreciation/schedule.ts";
import { xmlEscape, type AdapterInput } from "./adapter-input.ts";

export function ublStatement(a: AdapterInput): string {
  const cur = a.book.functionalCurrency;
  const amt = (tag: string, d: InstanceType<typeof Dec>) => `<cbc:${tag} currencyID="${cur}">${fixed(d, a.digits)}</cbc:${tag}>`;
  let balance = a.rollforward.totals.opening;
  let debit = new Dec(0);
  let credit = new Dec(0);
  const lines: string[] = [
    `  <cac:StatementLine>
    <cbc:ID>opening</cbc:ID>
    <cbc:Note>Carrying amount brought forward at ${a.rollforward.openingDate}</cbc:Note>
    <cbc:BalanceBroughtForwardIndicator>true</cbc:BalanceBroughtForwardIndicator>
    ${amt("BalanceAmount", balance)}
  </cac:StatementLine>`,
  ];
  for (const e of a.entries) {
    const isDebit = e.side === "debit";
    if (isDebit) debit = debit.plus(e.amount);
    else credit = credit.plus(e.amount);
    balance = isDebit ? balance.plus(e.amount) : balance.minus(e.amount);
    const note = `${e.kind}${e.reversesEntryId ? ` reversal of ${e.reversesEntryId}` : ""}, item ${e.itemId}, value date ${e.valueDate}`;
    lines.push(`  <cac:StatementLine>
    <cbc:ID>${xmlEscape(e.id)}</cbc:ID>
    <cbc:Note>${xmlEscape(note)}</cbc:Note>
    <cbc:BalanceBroughtForwardIndicator>false</cbc:BalanceBroughtForwardIndicator>
    ${amt("DebitLineAmount", isDebit ? new Dec(e.amount) : new Dec(0))}
    ${amt("CreditLineAmount", isDebit ? new Dec(0) : new Dec(e.amount))}
    ${amt("BalanceAmount", balance)}
  </cac:StatementLine>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<Statement xmlns="urn:oasis:names:specification:ubl:schema:xsd:Statement-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:UBLVersionID>2.3</cbc:UBLVersionID>
  <cbc:CustomizationID>urn:ams:finance:${xmlEscape(a.mappingVersion.split(" ")[0]!)}</cbc:CustomizationID>
  <cbc:ID>${xmlEscape(`${a.book.id}:${a.asOf}`)}</cbc:ID>
  <cbc:IssueDate>${a.issuedOn}</cbc:IssueDate>
  <cbc:Note>Mapping version: ${xmlEscape(a.mappingVersion)}</cbc:Note>
  <cbc:Note>${xmlEscape(a.disclaimer)}</cbc:Note>
  <cbc:DocumentCurrencyCode>${cur}</cbc:DocumentCurrencyCode>
  ${amt("TotalDebitAmount", debit)}
  ${amt("TotalCreditAmount", credit)}
  ${amt("TotalBalanceAmount", balance)}
  <cbc:LineCountNumeric>${lines.length}</cbc:LineCountNumeric>
  <cac:StatementPeriod>
    <cbc:StartDate>${a.rollforward.openingDate}</cbc:StartDate>
    <cbc:EndDate>${a.asOf}</cbc:EndDate>
    <cbc:Description>Fixed-asset carrying amounts, fiscal year to date</cbc:Description>
  </cac:StatementPeriod>
  <cac:AccountingSupplierParty>
    <cac:Party>
      <cac:PartyName>
        <cbc:Name>${xmlEscape(a.partnerId)}</cbc:Name>
      </cac:PartyName>
    </cac:Party>
  </cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>
    <cbc:CustomerAssignedAccountID>${xmlEscape(a.book.id)}</cbc:CustomerAssignedAccountID>
    <cac:Party>
      <cac:PartyName>
        <cbc:Name>${xmlEscape(a.book.name)}</cbc:Name>
      </cac:PartyName>
    </cac:Party>
  </cac:AccountingCustomerParty>
${lines.join("\n")}
</Statement>
`;
}

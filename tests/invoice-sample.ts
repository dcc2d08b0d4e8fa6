// An invoice document made by hand, with its lines in hand, for the PDF's unit test and its
// bench (bench/invoice-pdf.ts).
import type { InvoiceDocument, InvoiceLine } from "../app/presenters/invoice-document.server";

export function sampleInvoice(
  lines = 3,
  overrides: Partial<InvoiceDocument> = {},
): InvoiceDocument & { lines: InvoiceLine[] } {
  return {
    id: 1,
    invoiceNo: "4242",
    issueDate: "2026-03-01",
    dueDate: "2026-03-31",
    status: "partial",
    voided: false,
    voidReason: null,
    business: {
      companyName: "PKS Trading Ltd",
      address: "12 Wharf Road\nApapa, Lagos",
      phone: "0803 000 0000",
      email: "accounts@pks.test",
      registrationNo: "RC 123456",
      taxNo: "TIN 9876",
      bankName: "First Bank",
      bankAccountName: "PKS Trading Ltd",
      bankAccountNo: "3012345678",
      logoUrl: null,
    },
    client: { name: "Okomu Oil Palm", address: "Km 5 Benin Road", email: null, phone: "0802", taxNo: "TIN-C" },
    lines: Array.from({ length: lines }, (_, i) => ({
      date: `2026-02-${String((i % 28) + 1).padStart(2, "0")}`,
      truckNo: `LAG-${100 + i}`,
      location: "Ikorodu yard",
      tons: "30.55",
      rate: "65000.50",
      amount: "1985765.28",
      receivedTons: null,
      moisture: null,
      qualityDeductionTons: null,
    })),
    lineCount: lines,
    weighedLines: 0,
    totalTons: "91.65",
    amount: "5957295.83",
    taxRate: "7.50",
    tax: "415625.29",
    net: "5541670.54",
    amountInWords:
      "Five Million Nine Hundred Fifty Seven Thousand Two Hundred Ninety Five Naira and Eighty Three Kobo Only",
    received: [{ kind: "payment", date: "2026-03-05", reference: "TRF-1", amount: "1000000.00" }],
    paid: "1000000.00",
    credited: "0.00",
    balance: "4957295.83",
    balanceInWords: "x",
    ...overrides,
  };
}

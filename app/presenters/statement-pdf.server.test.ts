import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentStatementLine } from "~/presenters/agent-statement.server";
import type { Statement, StatementLine } from "~/presenters/client-statement.server";
import { sampleInvoice } from "../../tests/invoice-sample";
import { outside, overlaps, pdfWords, type PdfWord } from "../../tests/pdf-words";
import { MARGIN } from "./pdf-kit.server";
import {
  AGENT_STATEMENT_COLUMNS,
  agentStatementLedger,
  CLIENT_STATEMENT_COLUMNS,
  clientStatementLedger,
  openingRow,
  renderLedgerPdf,
  type Ledger,
} from "./statement-pdf.server";

async function bytesOf(stream: ReadableStream<Uint8Array>) {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

function textOf(pdf: Buffer, dir = mkdtempSync(path.join(tmpdir(), "statement-pdf-"))) {
  const file = path.join(dir, "statement.pdf");
  writeFileSync(file, pdf);
  return {
    file,
    page: (n: number) =>
      execFileSync("pdftotext", ["-layout", "-f", String(n), "-l", String(n), file, "-"], { encoding: "utf8" }),
    pages: Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1]),
  };
}

function ledger(rows: number, overrides: Partial<Ledger> = {}): Ledger {
  async function* batches() {
    // Fed in batches, as the keyset pages come.
    for (let start = 0; start < rows; start += 50) {
      yield Array.from({ length: Math.min(50, rows - start) }, (_, i) => [
        "01/03/2026",
        "Payment",
        `TRF-${start + i}`,
        "4242",
        "",
        "1,000.00",
        `₦${start + i},000.00`,
      ]);
    }
  }
  return {
    title: "STATEMENT",
    documentTitle: "Statement of account: Okomu Oil Palm",
    business: sampleInvoice().business,
    facts: [
      ["Statement of account", ""],
      ["From", "01/03/2026"],
      ["To", "31/03/2026"],
    ],
    party: { label: "STATEMENT FOR", name: "Okomu Oil Palm", lines: ["Km 5 Benin Road"] },
    summary: [
      ["Opening balance", "₦1,000.00"],
      ["Closing balance", "₦12,345.67"],
    ],
    columns: CLIENT_STATEMENT_COLUMNS,
    rows: batches(),
    closing: ["Closing balance at 31/03/2026", "12,345.67"],
    box: {
      title: "Ageing as of 31/03/2026",
      figures: [
        ["Current", "₦12,345.67"],
        ["Over 90 days", "₦0.00"],
        ["Total", "₦12,345.67"],
      ],
    },
    footer: "Statement · Okomu Oil Palm",
    ...overrides,
  };
}

describe("statement PDF", () => {
  it("draws every row fed to it across pages, the column header on each page, the closing row and the box", async () => {
    const pdf = await bytesOf(renderLedgerPdf(ledger(120)));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const doc = textOf(pdf);
    expect(doc.pages).toBeGreaterThan(1);
    const first = doc.page(1);
    expect(first).toContain("STATEMENT");
    expect(first).toContain("Okomu Oil Palm");
    expect(first).toContain("₦12,345.67");
    expect(first).toContain("TRF-0");
    const second = doc.page(2);
    expect(second).toMatch(/DATE\s+TYPE\s+REFERENCE/);
    expect(second).toContain("Page 2");
    const last = doc.page(doc.pages);
    expect(last).toContain("TRF-119");
    expect(last).toContain("Closing balance at 31/03/2026");
    expect(last).toContain("AGEING AS OF 31/03/2026");
    expect(last).toContain("Over 90 days");
  });

  it("reads the next batch only once its reader has taken what is drawn", async () => {
    let asked = 0;
    async function* counted() {
      for (let b = 0; b < 80; b++) {
        asked += 1;
        yield Array.from({ length: 50 }, (_, i) => [
          "01/03/2026",
          "Payment",
          `TRF-${b}-${i}`,
          "4242",
          "",
          "1.00",
          "1.00",
        ]);
      }
    }
    const reader = renderLedgerPdf(ledger(0, { rows: counted() })).getReader();
    const chunks: Uint8Array[] = [(await reader.read()).value!];
    // Let the drawing run as far as it will without a reader.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A few pages wait in the two streams' buffers (13 batches here); without backpressure all 80.
    expect(asked).toBeLessThan(40);
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(asked).toBe(80);
    const text = textOf(Buffer.from(Buffer.concat(chunks)));
    expect(text.page(text.pages)).toContain("TRF-79-49");
    // Eighty pages of drawing: about 2 s on a quiet machine, far more beside the other lanes.
  }, 30_000);

  it("fails the stream when a batch cannot be read, rather than ending a short document", async () => {
    async function* broken() {
      yield [["01/03/2026", "Payment", "TRF-1", "4242", "", "1.00", "1.00"]];
      throw new Error("database went away");
    }
    await expect(bytesOf(renderLedgerPdf(ledger(0, { rows: broken() })))).rejects.toThrow();
  });

  it("stops reading its lines when the download is stopped: a held snapshot is let go", async () => {
    let closed = false;
    async function* endless() {
      try {
        for (let b = 0; ; b++)
          yield Array.from({ length: 50 }, () => ["01/03/2026", "Payment", `TRF-${b}`, "", "", "1", "1"]);
      } finally {
        closed = true;
      }
    }
    const reader = renderLedgerPdf(ledger(0, { rows: endless() })).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(closed).toBe(true);
  });
});

const business = sampleInvoice().business;
const MARCH = { from: "2026-03-01", to: "2026-03-31" };

async function* once<T>(batch: T[]) {
  yield batch;
}

function agentLine(overrides: Partial<AgentStatementLine>): AgentStatementLine {
  return {
    kind: "delivery",
    id: 1,
    date: "2026-03-05",
    truckNo: null,
    location: null,
    tons: null,
    buyingRate: null,
    gross: null,
    offloading: null,
    mobilization: null,
    earned: null,
    paid: null,
    method: null,
    reference: null,
    reversed: false,
    reversesPayoutId: null,
    reason: null,
    payoutKind: null,
    status: null,
    amount: null,
    owed: "0.00",
    cursor: "x",
    ...overrides,
  };
}

function agentLedger(name = "Pdf Agent", lines: AgentStatementLine[] = []) {
  return agentStatementLedger(
    {
      agent: {
        id: 7,
        name,
        phone: null,
        bankName: null,
        bankAccountName: null,
        bankAccountNo: null,
        payBasis: "loaded",
      },
      period: MARCH,
      openingOwed: "12345.67",
      closingOwed: "92345.67",
      totals: {
        deliveries: 1,
        tons: "10.00",
        gross: "90000.00",
        offloading: "1500.00",
        mobilization: "0.00",
        earned: "88500.00",
        paid: "8500.00",
      },
    },
    once(lines),
    { business },
  );
}

function clientLedger(name: string, lines: StatementLine[] = []) {
  const head: Omit<Statement, "lines" | "nextCursor" | "continued"> = {
    client: { id: 3, name, address: "Km 5 Benin Road", email: null, phone: null },
    period: MARCH,
    openingBalance: "1000.00",
    closingBalance: "1000.00",
    totalDebits: "0.00",
    totalCredits: "0.00",
    ageing: { current: "1000.00", d1_30: "0.00", d31_60: "0.00", d61_90: "0.00", over90: "0.00", total: "1000.00" },
  };
  return clientStatementLedger(head, once(lines), { business });
}

/** The right edge of a column's title: the word `last` of the title, after `first` on the header row. */
function titleRight(words: PdfWord[], first: string, last: string) {
  const start = words.findIndex((w, i) => w.text === first && words[i + 1]?.text === last);
  expect(start, `${first} ${last}`).toBeGreaterThanOrEqual(0);
  return words[start + 1].xMax;
}

describe("the statements' ledgers", () => {
  it("opens every ledger with one cell per column, the opening figure in the last", () => {
    for (const columns of [CLIENT_STATEMENT_COLUMNS, AGENT_STATEMENT_COLUMNS]) {
      const cells = openingRow(columns, "01/03/2026", "Opening", "1.00");
      expect(cells).toHaveLength(columns.length);
      expect(cells[columns.length - 1]).toBe("1.00");
      expect(cells.filter(Boolean)).toEqual(["01/03/2026", "Opening", "1.00"]);
    }
  });

  it("prints the agent's opening figure under Owed, as the page and the CSV do, not under Paid out", async () => {
    const ledger = agentLedger("Pdf Agent", [
      agentLine({ kind: "payout", id: 2, paid: "8500.00", method: "cheque", reference: "CHQ-9", owed: "3845.67" }),
    ]);
    const [page] = pdfWords(await bytesOf(renderLedgerPdf(ledger)));
    const words = page.words;
    const owedRight = titleRight(words, "OWED", "(₦)");
    const paidRight = titleRight(words, "OUT", "(₦)");
    const start = words.find(
      (w) => w.text === "start" && words.some((o) => o.text === "12,345.67" && o.yMin === w.yMin),
    )!;
    const opening = words.find((w) => w.text === "12,345.67" && w.yMin === start.yMin)!;
    // Right-aligned figures end where their column's title ends.
    expect(Math.abs(opening.xMax - owedRight)).toBeLessThan(1);
    expect(Math.abs(opening.xMax - paidRight)).toBeGreaterThan(20);
    // A payout's own figures stay where they were: paid under Paid out, owed under Owed.
    const payout = words.filter((w) => w.yMin === words.find((x) => x.text === "CHQ-9")!.yMin);
    expect(Math.abs(payout.find((w) => w.text === "8,500.00")!.xMax - paidRight)).toBeLessThan(1);
    expect(Math.abs(payout.find((w) => w.text === "3,845.67")!.xMax - owedRight)).toBeLessThan(1);
  });

  it("prints Yoruba and Igbo letters (ọ ẹ ị ụ, tone marks) as letters, not missing-glyph boxes", async () => {
    const name = "Ẹmẹka Ọkọrọ Ịfẹ́ Ụ̀ka";
    const text = textOf(await bytesOf(renderLedgerPdf(clientLedger(name)))).page(1);
    expect(text.normalize("NFC")).toContain(name.normalize("NFC"));
    const agent = textOf(await bytesOf(renderLedgerPdf(agentLedger("Ọlánrewájú Adéṣínà")))).page(1);
    expect(agent.normalize("NFC")).toContain("Ọlánrewájú Adéṣínà".normalize("NFC"));
  });

  it("keeps a 200-character name inside its box: nothing drawn over another word or off the page", async () => {
    const long = `${"Okomu Oil Palm Plantation Holdings ".repeat(6)}Limited`.slice(0, 200);
    expect(long).toHaveLength(200);
    const unbroken = "O".repeat(200);
    for (const ledger of [
      clientLedger(long),
      clientLedger(unbroken),
      agentLedger(long, [agentLine({ truckNo: "LAG-1", location: long, tons: "1.00", owed: "1.00" })]),
      { ...clientLedger("Okomu"), business: { ...business, companyName: long } },
      { ...agentLedger("Ade"), business: { ...business, companyName: unbroken } },
    ]) {
      for (const page of pdfWords(await bytesOf(renderLedgerPdf(ledger)))) {
        expect(overlaps(page.words).map(([a, b]) => `${a.text} / ${b.text}`)).toEqual([]);
        expect(outside(page, MARGIN).map((w) => w.text)).toEqual([]);
        const text = page.words.map((w) => w.text).join(" ");
        expect(text).toMatch(/STATEMENT/);
        expect(text).toMatch(/Page 1$/);
      }
    }
  });
});

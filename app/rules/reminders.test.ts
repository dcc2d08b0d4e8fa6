import { describe, expect, it } from "vitest";
import { addDays } from "~/utils/dates";
import {
  clientReminder,
  DEFAULT_REMINDER_LEVELS,
  dueLevel,
  dueWords,
  levelReached,
  parseLevels,
  reminderMessage,
  type OpenInvoice,
} from "./reminders";

const levels = DEFAULT_REMINDER_LEVELS;
const due = "2026-11-10";
const invoice = (over: Partial<OpenInvoice> = {}): OpenInvoice => ({
  id: 1,
  invoiceNo: "127",
  balance: "1000.00",
  dueDate: due,
  highestSent: null,
  ...over,
});

describe("the reminder schedule (docs/decisions/1260)", () => {
  it("reaches each level on its day and not the day before", () => {
    for (const level of levels) {
      const day = addDays(due, level);
      expect(levelReached(due, day, levels)).toBe(level);
      const before = levelReached(due, addDays(day, -1), levels);
      expect(before === null || before < level).toBe(true);
    }
    expect(levelReached(due, addDays(due, -4), levels)).toBeNull();
    expect(levelReached(due, addDays(due, -3), levels)).toBe(-3);
    expect(levelReached(due, addDays(due, -1), levels)).toBe(-3);
    expect(levelReached(due, due, levels)).toBe(0);
    expect(levelReached(due, addDays(due, 6), levels)).toBe(0);
    expect(levelReached(due, addDays(due, 7), levels)).toBe(7);
    expect(levelReached(due, addDays(due, 13), levels)).toBe(7);
    expect(levelReached(due, addDays(due, 14), levels)).toBe(14);
    expect(levelReached(due, addDays(due, 29), levels)).toBe(14);
    expect(levelReached(due, addDays(due, 30), levels)).toBe(30);
    expect(levelReached(due, addDays(due, 400), levels)).toBe(30);
  });

  it("reads the levels in any order", () => {
    expect(levelReached(due, addDays(due, 8), [30, 7, -3, 14, 0])).toBe(7);
  });

  it("offers a level once: not again once it or a higher one was sent", () => {
    const day = addDays(due, 7);
    expect(dueLevel(invoice(), day, levels)).toBe(7);
    expect(dueLevel(invoice({ highestSent: 0 }), day, levels)).toBe(7);
    expect(dueLevel(invoice({ highestSent: 7 }), day, levels)).toBeNull();
    expect(dueLevel(invoice({ highestSent: 7 }), addDays(due, 13), levels)).toBeNull();
    expect(dueLevel(invoice({ highestSent: 14 }), day, levels)).toBeNull();
    expect(dueLevel(invoice({ highestSent: 7 }), addDays(due, 14), levels)).toBe(14);
  });

  it("catches a missed week up once, at the highest level reached, never each missed one", () => {
    // Sent on the due day, then the server was down from day 1 to day 20: on day 21 only 14 is
    // offered (7 was missed and is never offered); once 14 is sent nothing until day 30.
    const sentOnDueDay = invoice({ highestSent: 0 });
    expect(dueLevel(sentOnDueDay, addDays(due, 21), levels)).toBe(14);
    const after = invoice({ highestSent: 14 });
    for (let d = 21; d < 30; d++) expect(dueLevel(after, addDays(due, d), levels)).toBeNull();
    expect(dueLevel(after, addDays(due, 30), levels)).toBe(30);
    // Nothing was ever sent and the first computation is 40 days late: one reminder, level 30.
    const r = clientReminder({ remindersOff: false }, [invoice()], addDays(due, 40), levels);
    expect(r?.invoices.map((i) => i.level)).toEqual([30]);
  });

  it("drops an invoice paid in between, and one with no balance", () => {
    const day = addDays(due, 7);
    expect(clientReminder({ remindersOff: false }, [invoice({ balance: "0.00" })], day, levels)).toBeNull();
    expect(clientReminder({ remindersOff: false }, [invoice({ balance: "-5.00" })], day, levels)).toBeNull();
    const r = clientReminder(
      { remindersOff: false },
      [invoice({ id: 1, balance: "0.00" }), invoice({ id: 2, invoiceNo: "128", balance: "0.01" })],
      day,
      levels,
    );
    expect(r?.invoices.map((i) => i.id)).toEqual([2]);
  });

  it("leaves a client switched off out, whatever is due", () => {
    expect(clientReminder({ remindersOff: true }, [invoice()], addDays(due, 30), levels)).toBeNull();
  });

  it("names every due invoice of the client, oldest due first, at the client's highest level", () => {
    const r = clientReminder(
      { remindersOff: false },
      [
        invoice({ id: 3, invoiceNo: "130", dueDate: "2026-11-20" }),
        invoice({ id: 1, invoiceNo: "127", dueDate: "2026-10-01" }),
        invoice({ id: 2, invoiceNo: "128", dueDate: "2026-11-01", highestSent: 14 }),
        invoice({ id: 4, invoiceNo: "131", dueDate: "2026-12-30" }),
      ],
      "2026-11-20",
      levels,
    );
    expect(r).toEqual({
      level: 30,
      invoices: [expect.objectContaining({ id: 1, level: 30 }), expect.objectContaining({ id: 3, level: 0 })],
    });
  });

  it("says how far from due each invoice is", () => {
    expect(dueWords(due, addDays(due, -3))).toBe("due in 3 days");
    expect(dueWords(due, addDays(due, -1))).toBe("due in 1 day");
    expect(dueWords(due, due)).toBe("due today");
    expect(dueWords(due, addDays(due, 1))).toBe("1 day overdue");
    expect(dueWords(due, addDays(due, 30))).toBe("30 days overdue");
  });

  it("writes one message with the invoices, amounts, due dates, total and link", () => {
    const text = reminderMessage({
      clientName: "Kodan",
      businessName: "PKS Ltd",
      invoices: [
        { invoiceNo: "127", balance: "1500000.00", dueDate: "2026-11-01" },
        { invoiceNo: "128", balance: "250.50", dueDate: "2026-11-10" },
      ],
      today: "2026-11-10",
      statementUrl: "https://pks.example/s/abc",
    });
    expect(text).toBe(
      [
        "Hello Kodan, this is a payment reminder from PKS Ltd.",
        "",
        "- Invoice 127: ₦1,500,000.00 due Nov 01, 2026 (9 days overdue)",
        "- Invoice 128: ₦250.50 due Nov 10, 2026 (due today)",
        "",
        "Total: ₦1,500,250.50",
        "Your statement: https://pks.example/s/abc",
        "",
        "Thank you.",
      ].join("\n"),
    );
  });

  it("parses the levels typed in settings", () => {
    expect(parseLevels("-3, 0, 7, 14, 30")).toEqual({ ok: true, levels: [-3, 0, 7, 14, 30] });
    expect(parseLevels("30 7 -3 7 +14 -0")).toEqual({ ok: true, levels: [-3, 0, 7, 14, 30] });
    expect(parseLevels("")).toMatchObject({ ok: false });
    expect(parseLevels("1.5")).toMatchObject({ ok: false, message: '"1.5" is not a whole number of days' });
    expect(parseLevels("400")).toMatchObject({ ok: false });
    expect(parseLevels("1,2,3,4,5,6,7,8,9,10,11")).toMatchObject({ ok: false, message: "At most 10 levels" });
  });
});

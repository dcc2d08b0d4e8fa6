import { describe, expect, test } from "vitest";
import { deliveryPageColumns, STAFF_RECENT_COLUMNS, type DeliveryRow } from "~/components/deliveries/deliveries-table";
import { deliveryRowsHtml, type RowOptions } from "~/components/deliveries/delivery-rows-html";

const renderRows = (rows: DeliveryRow[], options: RowOptions) => deliveryRowsHtml(rows, options);

const row: DeliveryRow = {
  id: 42,
  date: "2026-11-05",
  agentName: "Musa Ibrahim",
  clientName: "Kodan",
  tons: "19",
  truckNo: null,
  location: "Yard 3",
  status: "confirmed",
  profit: "227000",
  netPaymentToAgent: null,
};

describe("deliveries table rows", () => {
  test("an admin's row: every column in order, money and tons formatted, plain Edit and Ticket links", () => {
    expect(renderRows([row], { columns: deliveryPageColumns("admin"), compact: false })).toBe(
      '<tr><td class="nowrap">Nov 05, 2026</td><td>Musa Ibrahim</td><td>Kodan</td><td class="num">19.00</td>' +
        '<td class="num">-</td><td class="num">-</td><td class="num">-</td><td class="nowrap">-</td><td>-</td>' +
        '<td>Yard 3</td><td><span class="badge capitalize tone-blue">confirmed</span></td><td class="num">₦227,000.00</td>' +
        '<td class="num">-</td><td class="nowrap"><a href="/deliveries/42/edit" data-discover="true" data-keep-scroll="" class="btn-ghost btn-sm" ' +
        'aria-label="Edit delivery of Nov 05, 2026 from Musa Ibrahim">Edit</a><a href="/deliveries/42/tickets/new" ' +
        'data-discover="true" data-keep-scroll="" class="btn-ghost btn-sm" ' +
        'aria-label="Record ticket for delivery of Nov 05, 2026 from Musa Ibrahim">Ticket</a></td></tr>',
    );
  });

  test("the three weights and shortage to the kilogram, and the tickets by kind (decision 1220)", () => {
    const weighed: DeliveryRow = {
      ...row,
      tons: "30.550",
      receivedTons: "30.120",
      acceptedTons: "29.367",
      shortageTons: "0.430",
      ticketKinds: ["loading", "received"],
    };
    const out = renderRows([weighed], { columns: deliveryPageColumns("staff"), compact: false });
    expect(out).toContain(
      '<td class="num">30.55</td><td class="num">30.12</td><td class="num">29.367</td><td class="num">0.43</td>',
    );
    expect(out).toContain('<td class="nowrap">L R</td>');
    expect(renderRows([{ ...weighed, ticketKinds: ["received"] }], { columns: ["tickets"], compact: false })).toBe(
      '<tr><td class="nowrap">R</td></tr>',
    );
    expect(renderRows([row], { columns: ["tickets"], compact: false })).toBe('<tr><td class="nowrap">-</td></tr>');
    // A client that weighed more: the shortage is negative, shown as it is.
    expect(renderRows([{ ...weighed, shortageTons: "-0.120" }], { columns: ["shortage"], compact: false })).toBe(
      '<tr><td class="num">-0.12</td></tr>',
    );
    // An invoiced delivery's tickets can no longer change: Edit without Ticket.
    expect(
      renderRows([{ ...row, status: "invoiced" }], { columns: deliveryPageColumns("manager"), compact: false }),
    ).not.toContain("Record ticket");
  });

  test("a row of a closed month says View, not Edit (decision 0901); the day after it still says Edit", () => {
    const columns = deliveryPageColumns("admin");
    expect(renderRows([row], { columns, compact: false, closedThrough: "2026-11-30" })).toContain(
      'aria-label="View delivery of Nov 05, 2026 from Musa Ibrahim">View</a>',
    );
    expect(renderRows([row], { columns, compact: false, closedThrough: "2026-11-04" })).toContain(">Edit</a>");
  });

  test("staff see no money and no Edit; on a phone the location rides under the agent", () => {
    const out = renderRows([row], { columns: STAFF_RECENT_COLUMNS, compact: true });
    expect(out).toBe(
      '<tr><td class="nowrap">Nov 05, 2026</td><td class="wrap-any">Musa Ibrahim<span class="block text-xs text-slate-500 sm:hidden">Yard 3</span></td>' +
        '<td class="num">19.00</td><td class="phone-hidden">Yard 3</td><td><span class="badge capitalize tone-blue">confirmed</span></td></tr>',
    );
    expect(renderRows([row], { columns: deliveryPageColumns("staff"), compact: false })).not.toMatch(/₦|Edit/);
  });

  test("names and places typed by people are text, never markup, in cells and in the link's label", () => {
    const out = renderRows([{ ...row, agentName: `<img src=x onerror="alert(1)">`, location: "A & B <Yard>" }], {
      columns: deliveryPageColumns("admin"),
      compact: false,
    });
    expect(out).toContain("<td>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</td>");
    expect(out).toContain("<td>A &amp; B &lt;Yard&gt;</td>");
    expect(out).toContain(
      'aria-label="Edit delivery of Nov 05, 2026 from &lt;img src=x onerror=&quot;alert(1)&quot;&gt;"',
    );
    expect(out).not.toContain("<img");
  });
  test("a name or a location is text, never markup: the rows are one string (decision 0507)", () => {
    const hostile = { ...row, agentName: `<img src=x onerror="alert(1)">`, location: "O'Neil & Sons <b>" };
    const out = renderRows([hostile], { columns: ["agent", "location", "edit"], compact: true });
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<b>");
    expect(out).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(out).toContain("O&#39;Neil &amp; Sons &lt;b&gt;");
    expect(out).toContain(
      'aria-label="Edit delivery of Nov 05, 2026 from &lt;img src=x onerror=&quot;alert(1)&quot;&gt;"',
    );
  });
});

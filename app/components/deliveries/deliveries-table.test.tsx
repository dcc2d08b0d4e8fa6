import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import {
  DeliveryRows,
  deliveryPageColumns,
  STAFF_RECENT_COLUMNS,
  type DeliveryRow,
  type RowOptions,
} from "~/components/deliveries/deliveries-table";

const renderRows = (rows: DeliveryRow[], options: RowOptions) =>
  renderToStaticMarkup(<DeliveryRows rows={rows} {...options} />);

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
  test("an admin's row: every column in order, money and tons formatted, a plain Edit link", () => {
    expect(renderRows([row], { columns: deliveryPageColumns("admin"), compact: false })).toBe(
      '<tr><td class="nowrap">Nov 05, 2026</td><td>Musa Ibrahim</td><td>Kodan</td><td class="num">19.00</td><td>-</td>' +
        '<td>Yard 3</td><td><span class="badge capitalize tone-blue">confirmed</span></td><td class="num">₦227,000.00</td>' +
        '<td class="num">-</td><td><a href="/deliveries/42/edit" data-discover="true" data-keep-scroll="" class="btn-ghost btn-sm" ' +
        'aria-label="Edit delivery of Nov 05, 2026 from Musa Ibrahim">Edit</a></td></tr>',
    );
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
});

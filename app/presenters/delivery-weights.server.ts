// A delivery's three weights and its tickets as the pages show them (docs/decisions/1220): the
// view's figures as they are, the tickets' moments as the business's wall clock (the browser does
// not know APP_TIME_ZONE).
import type { DeliveryView } from "~/models/delivery.server";
import { wallClockOf } from "~/utils/zone-days.server";

export function presentWeights(delivery: DeliveryView, timeZone: string) {
  return {
    loadedTons: delivery.loadedTons,
    receivedTons: delivery.receivedTons,
    acceptedTons: delivery.acceptedTons,
    shortageTons: delivery.shortageTons,
    moisture: delivery.moisture,
    qualityDeductionTons: delivery.qualityDeductionTons,
    tickets: delivery.tickets.map((t) => ({
      kind: t.kind,
      ticketNo: t.ticketNo,
      truckNo: t.truckNo,
      grossKg: t.grossKg,
      tareKg: t.tareKg,
      netKg: t.netKg,
      moisture: t.moisture,
      weighedAt: t.weighedAt ? wallClockOf(timeZone, t.weighedAt) : null,
      recordedAt: wallClockOf(timeZone, t.recordedAt),
      photoUrl: t.photoUrl ?? null,
    })),
  };
}

export type ShownWeights = ReturnType<typeof presentWeights>;
export type ShownTicket = ShownWeights["tickets"][number];

// Every event a database test wrote reads in words (docs/decisions/0900): a test file that
// exercises audited actions ends with `expectEveryEventWorded()`, so a field or an action added to
// an event without words in app/utils/audit-words.server.ts fails there.
import { expect } from "vitest";
import { getDb, schema } from "../app/db.server";
import { ACTION_WORDS, unwordedFields } from "../app/utils/audit-words.server";

export async function expectEveryEventWorded() {
  const db = await getDb();
  const events = await db
    .select({
      action: schema.auditEvents.action,
      entityType: schema.auditEvents.entityType,
      before: schema.auditEvents.before,
      after: schema.auditEvents.after,
    })
    .from(schema.auditEvents);
  expect(events.length).toBeGreaterThan(0);
  const missing = new Set<string>();
  for (const event of events) {
    if (!(event.action in ACTION_WORDS)) missing.add(`action ${event.action}`);
    for (const field of unwordedFields(event)) missing.add(`${event.action}: ${field}`);
  }
  expect([...missing]).toEqual([]);
}

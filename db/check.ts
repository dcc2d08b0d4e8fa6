// npm run db:check: the reconciliation invariants against the live database; exits 1 on any
// breach. On PGlite with the app running, the app runs the check (one process per directory);
// with no app, this script opens the directory under its lock.
import { drizzle } from "drizzle-orm/pglite";
import { askAppOrOpen, openDatabase, pgliteDir } from "./ops-cli";
import { describeBreaches, findBreaches, type Breach } from "./ops";
import * as schema from "./schema";
import type { Db } from "./client.server";

let breaches: Breach[];
if (process.env.DATABASE_URL) {
  const { db, close } = await openDatabase();
  try {
    breaches = await findBreaches(db);
  } finally {
    await close();
  }
} else {
  const found = await askAppOrOpen(pgliteDir(), { command: "check" });
  if ("answer" in found) {
    if (!found.answer.ok) throw new Error(String(found.answer.error));
    breaches = found.answer.breaches as Breach[];
  } else {
    const { client, close } = found.opened;
    try {
      breaches = await findBreaches(drizzle(client, { schema }) as unknown as Db);
    } finally {
      await close();
    }
  }
}
console.log(describeBreaches(breaches));
process.exit(breaches.length ? 1 : 0);

// npm run db:check: the reconciliation invariants against the live database; exits 1 on any
// breach. On PGlite with the app running, the app runs the check (one process per directory).
import { askApp, openDatabase, opsSocketPath, pgliteDir } from "./ops-cli";
import { describeBreaches, findBreaches, type Breach } from "./ops";

let breaches: Breach[];
const viaApp = process.env.DATABASE_URL ? null : await askApp(opsSocketPath(pgliteDir()), { command: "check" });
if (viaApp) {
  if (!viaApp.ok) throw new Error(String(viaApp.error));
  breaches = viaApp.breaches as Breach[];
} else {
  const { db, close } = await openDatabase();
  try {
    breaches = await findBreaches(db);
  } finally {
    await close();
  }
}
console.log(describeBreaches(breaches));
process.exit(breaches.length ? 1 : 0);

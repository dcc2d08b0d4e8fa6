// Holds a PGlite data directory's lock as an app does from the moment it starts (before its ops
// socket listens), for HOLD_MS, then exits. Usage: node --import tsx hold-lock.ts DIR
import { lockDataDir } from "../../../db/client.server";

const dir = process.argv[2];
const release = await lockDataDir(dir);
console.log("locked");
setTimeout(
  () => {
    release();
    console.log("released");
  },
  Number(process.env.HOLD_MS ?? 60_000),
);

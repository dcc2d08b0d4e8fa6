// Applies pending migrations to the configured database (the app also does this at start). On
// PGlite it refuses a data directory another process holds (the app: stop it, it migrates at start).
import { connect, optionsFromEnv } from "./client.server";

const options = optionsFromEnv();
const { close } = await connect(options);
await close();
console.log(`Migrations applied (${options.driver}).`);

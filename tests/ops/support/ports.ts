// Ports for the ops tests: app ports from OPS_PORT_BASE (default 4220), private PostgreSQL
// clusters from OPS_PG_PORT_BASE (default 5520), so two checkouts can run them side by side.
const appBase = Number(process.env.OPS_PORT_BASE ?? 4220);
const pgBase = Number(process.env.OPS_PG_PORT_BASE ?? 5520);

export const appPort = (offset: number) => appBase + offset;
export const pgPort = (offset: number) => pgBase + offset;

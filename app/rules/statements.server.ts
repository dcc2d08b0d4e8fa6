// The SQL twin of the ageing rule of app/rules/ageing.ts (decision 0800; the database tests
// hold the two equal at every boundary).
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AgeingBucket } from "./ageing";

export * from "./ageing";

/** The SQL twin of `ageingBucket`: `asOf` a yyyy-MM-dd parameter, `due` a date, `outstanding` numeric. */
export const ageingBucketSql = (asOf: string, due: SQLWrapper, outstanding: SQLWrapper | SQL) =>
  sql<AgeingBucket>`(case
    when ${outstanding} < 0 or ${asOf}::date - ${due} <= 0 then 'current'
    when ${asOf}::date - ${due} <= 30 then 'd1_30'
    when ${asOf}::date - ${due} <= 60 then 'd31_60'
    when ${asOf}::date - ${due} <= 90 then 'd61_90'
    else 'over90' end)`;

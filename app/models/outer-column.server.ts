// A column of a correlated subquery's outer row, always qualified with its table. In a one-table
// select drizzle writes a column bare ("id"), and inside a subquery on the same table a bare name
// means the inner row: the subquery then silently finds nothing (decision 0920).
import { sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

export const outerColumn = (table: PgTable, column: string) => sql`${table}.${sql.identifier(column)}`;

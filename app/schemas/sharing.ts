// The share link form and JSON body (docs/decisions/1260), shared by the page's form and
// POST /api/share-links.
import * as z from "zod";
import { MAX_ID } from "~/utils/params";

/** What can be shared (db/schema-sharing.ts holds the same list for the table's check). */
export const SHARE_SCOPES = ["invoice", "client-statement", "agent-statement"] as const;
export const SHARE_DEFAULT_DAYS = 30;
export const SHARE_MAX_DAYS = 180;
export const EXPIRY_MESSAGE = `Expiry must be a whole number of days from 1 to ${SHARE_MAX_DAYS}`;

const blankIsUnset = (value: unknown) => (value === "" || value === null ? undefined : value);

export const ShareLinkSchema = z.object({
  scope: z.enum(SHARE_SCOPES, { error: "Scope must be invoice, client-statement or agent-statement" }),
  subjectId: z.coerce
    .number({ error: "Subject must be an id" })
    .int("Subject must be an id")
    .min(1, "Subject must be an id")
    .max(MAX_ID, "Subject must be an id"),
  expiresInDays: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: EXPIRY_MESSAGE })
      .int(EXPIRY_MESSAGE)
      .min(1, EXPIRY_MESSAGE)
      .max(SHARE_MAX_DAYS, EXPIRY_MESSAGE)
      .optional(),
  ),
});

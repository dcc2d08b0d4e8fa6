// Record Certificate (docs/decisions/1240): the client's credit note for what it withheld (its WHT
// certificate), number and date received. A withholding is outstanding until then. One each: the
// withholding is locked first, so two people recording it at once queue and the second is told it
// is recorded (a unique index backs it). Runs on the keyed write pipeline (decision 0805).
import { eq } from "drizzle-orm";
import { schema, type Withholding } from "~/db.server";
import type { Actor } from "~/rules/capabilities.server";
import { parseFields } from "~/schemas/parse-fields.server";
import { CertificateSchema } from "~/schemas/receipt";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { businessDateRefusal } from "~/utils/business-dates";
import { formatDate } from "~/utils/dates";
import { failOn, type Failure } from "~/utils/result";

type Certificate = typeof schema.withholdingCertificates.$inferSelect;
type Input = { withholdingId: number; certificateNo: string; receivedOn: string };
type Made = { certificate: Certificate };
type RecordCertificateResult = ({ ok: true; replayed: boolean } & Made) | Failure;

const recordCertificateCommand: KeyedCommand<Input, Withholding, Made> = {
  capability: "payment.record",
  object: (input) => `withholding/${String(input.withholdingId)}/certificate`,
  scope: "withholding.certificate",
  parse(input, { today }) {
    const parsed = parseFields(CertificateSchema, input);
    if (!parsed.ok) return parsed;
    const bad = businessDateRefusal("Date received", parsed.data.receivedOn!, today, 0);
    if (bad) return failOn(400, "receivedOn", bad);
    return {
      ok: true,
      data: {
        withholdingId: input.withholdingId as number,
        certificateNo: parsed.data.certificateNo,
        receivedOn: parsed.data.receivedOn!,
      },
    };
  },
  hash: (input) => input,
  async replay(tx, resourceId) {
    const c = schema.withholdingCertificates;
    const [certificate] = await tx
      .select()
      .from(c)
      .where(eq(c.id, Number(resourceId)));
    return certificate ? { certificate } : refuseWith({ ok: false, status: 409, message: "Already recorded" });
  },
  async lock(tx, { withholdingId }) {
    const w = schema.withholdings;
    const [row] = await tx.select().from(w).where(eq(w.id, withholdingId)).for("update");
    return row ?? refuseWith({ ok: false, status: 404, message: "Withholding not found" });
  },
  landsOn: ({ receivedOn }) => receivedOn,
  closedField: "receivedOn",
  async check(tx, { receivedOn }, withholding) {
    if (withholding.reversesWithholdingId !== null)
      refuseWith({ ok: false, status: 409, message: "A reversal takes no certificate" });
    const w = schema.withholdings;
    const [reversal] = await tx.select({ id: w.id }).from(w).where(eq(w.reversesWithholdingId, withholding.id));
    if (reversal) refuseWith({ ok: false, status: 409, message: "This withholding was reversed with its receipt" });
    const c = schema.withholdingCertificates;
    const [earlier] = await tx.select().from(c).where(eq(c.withholdingId, withholding.id));
    if (earlier)
      refuseWith({
        ok: false,
        status: 409,
        message: `Its certificate ${earlier.certificateNo} was recorded, received on ${formatDate(earlier.receivedOn)}`,
      });
    if (receivedOn < withholding.withholdingDate)
      refuseWith(failOn(400, "receivedOn", "A certificate is received on or after the day the tax was withheld"));
  },
  async write(tx, { certificateNo, receivedOn }, withholding, { actor }) {
    const [certificate] = await tx
      .insert(schema.withholdingCertificates)
      .values({ withholdingId: withholding.id, certificateNo, receivedOn, createdBy: actor.id })
      .returning();
    const [invoice] = await tx
      .select({ invoiceNo: schema.invoices.invoiceNo })
      .from(schema.invoices)
      .where(eq(schema.invoices.id, withholding.invoiceId));
    return {
      made: { certificate },
      resourceId: certificate.id,
      audit: [
        {
          action: "withholding.certificate",
          entityType: "withholding",
          entityId: withholding.id,
          before: null,
          after: {
            invoiceNo: invoice?.invoiceNo,
            wht: withholding.wht,
            vat: withholding.vat,
            certificateNo,
            receivedOn,
          },
        },
      ],
    };
  },
};

/** Records a withholding's certificate: idempotent, refused in a closed month, audited. */
export function recordCertificate(
  actor: Actor,
  withholdingId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<RecordCertificateResult> {
  return keyedWrite(recordCertificateCommand, actor, { ...input, withholdingId }, { idempotencyKey, now });
}

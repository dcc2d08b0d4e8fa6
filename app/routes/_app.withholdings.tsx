import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ExportCsvLink } from "~/components/export-link";
import { FilterForm } from "~/components/filter-form";
import { ClientFilter, FilterDate, FilterSelect } from "~/components/list-filters";
import { PageHeader } from "~/components/page-header";
import { Pager } from "~/components/pager";
import { listClientChoices } from "~/models/client.server";
import { listWithholdings, parseWithholdingFilters } from "~/presenters/withholdings.server";
import { requireCapability } from "~/rules/capabilities.server";
import { CertificateFormSchema } from "~/schemas/receipt";
import { recordCertificate } from "~/services/receipts/record-certificate.server";
import { formatDate, formatMonth, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { parseId, readPageRequest } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";

// The Withholding page (docs/decisions/1240): what clients withheld, by client and month, each
// outstanding until its certificate is recorded here (number and date received).
export const meta: MetaFunction = () => [{ title: "Withholding · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const params = new URL(request.url).searchParams;
  const { filters } = parseWithholdingFilters(params);
  const asked = readPageRequest(params, "date");
  const page = asked.invalid ? { cursor: null, direction: "older" as const } : asked;
  const [rows, clients] = await Promise.all([listWithholdings(user, filters, { page }), listClientChoices()]);
  return {
    rows: rows.items,
    olderCursor: rows.olderCursor,
    newerCursor: rows.newerCursor,
    clients,
    today: todayIn(env().APP_TIME_ZONE),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: CertificateFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: key, withholdingId, ...input } = Object.fromEntries(formData);
  const id = parseId(typeof withholdingId === "string" ? withholdingId : null) ?? 0;
  const result = await recordCertificate(user, id, input, new Date(), { idempotencyKey: keyOf(null, key) });
  if (!result.ok)
    return replyRefused(submission, result, {
      formMessage: `Failed to record certificate: ${result.message}`,
      always: true,
    });
  return redirectWithToast(`/withholdings${new URL(request.url).search}`, { title: "Certificate recorded" });
}

export default function WithholdingsPage() {
  const { rows, olderCursor, newerCursor, clients, today } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>()?.result;
  return (
    <div className="space-y-4">
      <PageHeader title="Withholding" subtitle="Tax clients withheld, until their certificates arrive">
        <ExportCsvLink to="/withholdings/export" />
      </PageHeader>
      <FilterForm label="Filter withholding" clearTo="/withholdings" names={["status", "clientId", "from", "to"]}>
        <FilterSelect
          name="status"
          label="Status"
          allLabel="All"
          options={[
            { value: "outstanding", label: "Outstanding" },
            { value: "received", label: "Certificate received" },
          ]}
        />
        <ClientFilter clients={clients} />
        <FilterDate name="from" label="Withheld from" />
        <FilterDate name="to" label="Withheld to" />
      </FilterForm>
      {refused?.error?.[""] ? (
        <p role="alert" className="card border-red-300 p-3 text-red-700">
          {refused.error[""].join(" ")}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <div className="card p-10 text-center">
          <p className="font-semibold">Nothing withheld</p>
        </div>
      ) : (
        <ul className="card divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((r) => (
            <li key={r.id} className="space-y-2 p-4" data-testid={`withholding-${r.id}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p>
                  <span className="font-semibold">{r.clientName}</span>{" "}
                  <span className="text-slate-500">
                    · {formatMonth(r.month)} · invoice #{r.invoiceNo} · {formatDate(r.date)}
                  </span>
                </p>
                <p className="tabular-nums">
                  WHT {formatNaira(r.wht)}
                  {r.vat !== "0.00" ? ` · VAT ${formatNaira(r.vat)}` : ""}
                </p>
              </div>
              {r.status === "received" ? (
                <p className="text-sm">
                  Certificate {r.certificateNo}, received {formatDate(r.receivedOn!)}
                </p>
              ) : (
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="withholdingId" value={r.id} />
                  <input type="hidden" name="idempotencyKey" value={`certificate-${r.id}`} />
                  <label className="min-w-0 flex-1">
                    <span className="label">Certificate no.</span>
                    <input name="certificateNo" className="input" required maxLength={100} />
                  </label>
                  <label>
                    <span className="label">Received on</span>
                    <input name="receivedOn" type="date" className="input" required max={today} defaultValue={today} />
                  </label>
                  <button type="submit" className="btn-primary">
                    Record certificate
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pager label="Withholding pages" olderCursor={olderCursor} newerCursor={newerCursor} />
    </div>
  );
}

import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, useRevalidator } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { FormErrors, InputField, SelectField, SubmitButton } from "~/components/forms";
import type { FormConstraint } from "~/schemas/fields";
import { DATE_FORMAT_CHOICES } from "~/schemas/bank-statement";

// The Bank statement's import form (docs/decisions/1241): the account (chosen above by a GET form,
// or a new one named here), its mapping prefilled from what was saved, and the file. Without
// JavaScript it is a plain multipart post; with it, the file goes by XMLHttpRequest to
// POST /api/bank-statements, with a progress bar while it is sent and read.

type Mapping = {
  dateColumn?: string;
  dateFormat?: string;
  narrationColumn?: string;
  referenceColumn?: string;
  amountStyle?: "signed" | "split";
  amountColumn?: string;
  creditColumn?: string;
  debitColumn?: string;
};

type Progress = { sent: number; phase: "sending" | "reading" } | null;
type Outcome = { ok: boolean; message: string } | null;

export function StatementImportForm({
  account,
  constraint,
  lastResult,
  pending,
}: {
  account: { id: number; name: string; mapping: Mapping | null } | null;
  constraint: FormConstraint;
  lastResult: SubmissionResult<string[]> | undefined;
  pending: boolean;
}) {
  const mapping = account?.mapping ?? {};
  const [form, fields] = useForm<Record<string, string>>({
    lastResult,
    constraint,
    defaultValue: {
      dateFormat: "dd/MM/yyyy",
      amountStyle: "split",
      ...Object.fromEntries(Object.entries(mapping).filter(([, v]) => typeof v === "string")),
    },
    shouldValidate: "onSubmit",
  });
  const [progress, setProgress] = useState<Progress>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const revalidator = useRevalidator();

  // With JavaScript: the same fields to the JSON call, so the page can show how far the upload is.
  const send = (event: FormEvent<HTMLFormElement>) => {
    if (typeof XMLHttpRequest === "undefined" || !event.currentTarget.checkValidity()) return;
    event.preventDefault();
    const body = new FormData(event.currentTarget);
    body.delete("intent");
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/bank-statements");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress({ sent: Math.round((e.loaded / e.total) * 100), phase: "sending" });
    };
    xhr.upload.onload = () => setProgress({ sent: 100, phase: "reading" });
    xhr.onerror = () => {
      setProgress(null);
      setOutcome({ ok: false, message: "The file could not be sent: check the connection and try again" });
    };
    xhr.onload = () => {
      setProgress(null);
      let answer: Record<string, unknown> = {};
      try {
        answer = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        answer = { message: `The server answered ${xhr.status}` };
      }
      if (xhr.status === 201) {
        setOutcome({
          ok: true,
          message: `Statement imported: ${answer.linesAdded} new lines, ${answer.duplicates} already imported`,
        });
        revalidator.revalidate();
      } else {
        const errors = Object.values((answer.errors ?? {}) as Record<string, string[]>).flat();
        setOutcome({ ok: false, message: [answer.message, ...errors.filter((e) => e !== answer.message)].join(" · ") });
      }
    };
    setOutcome(null);
    setProgress({ sent: 0, phase: "sending" });
    xhr.send(body);
  };

  const busy = pending || progress !== null;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      onSubmit={send}
      className="card space-y-4 p-4"
      aria-label="Import a statement"
    >
      <input type="hidden" name="intent" value="import" />
      <FormErrors errors={form.errors} id={form.errorId} />
      {account ? (
        <>
          <input type="hidden" name="bankAccountId" value={account.id} />
          <p className="text-sm">
            Into <span className="font-semibold">{account.name}</span>
          </p>
        </>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <InputField meta={fields.accountName} label="New account name" required />
          <InputField meta={fields.accountNo} label="Account number (optional)" inputMode="numeric" />
        </div>
      )}
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-2 font-semibold">Columns, as the file's header names them</legend>
        <InputField meta={fields.dateColumn} label="Date column" />
        <SelectField meta={fields.dateFormat} label="Date format">
          {DATE_FORMAT_CHOICES.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </SelectField>
        <InputField meta={fields.narrationColumn} label="Narration column" />
        <InputField meta={fields.referenceColumn} label="Reference column (optional)" />
        <SelectField meta={fields.amountStyle} label="Amounts">
          <option value="split">Credit and debit columns</option>
          <option value="signed">One signed amount column</option>
        </SelectField>
        <InputField meta={fields.creditColumn} label="Credit column (credit and debit)" />
        <InputField meta={fields.debitColumn} label="Debit column (optional)" />
        <InputField meta={fields.amountColumn} label="Amount column (signed)" />
      </fieldset>
      <div>
        <label className="label" htmlFor="statement-file">
          CSV file (at most 2 MB, 10,000 lines)
        </label>
        <input
          id="statement-file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          required
          className="input"
          aria-invalid={fields.file.errors?.length ? true : undefined}
          aria-describedby={fields.file.errors?.length ? fields.file.errorId : undefined}
        />
        {fields.file.errors?.length ? (
          <p id={fields.file.errorId} className="mt-1 text-sm text-red-700">
            {fields.file.errors.join(" ")}
          </p>
        ) : null}
      </div>
      {progress ? (
        <div role="status" aria-live="polite" className="space-y-1">
          <progress className="w-full" max={100} value={progress.phase === "reading" ? undefined : progress.sent}>
            {progress.sent}%
          </progress>
          <p className="text-sm">
            {progress.phase === "sending" ? `Sending the file: ${progress.sent}%` : "Reading the lines..."}
          </p>
        </div>
      ) : null}
      {outcome ? (
        <p role={outcome.ok ? "status" : "alert"} className={outcome.ok ? "text-sm" : "text-sm text-red-700"}>
          {outcome.message}
        </p>
      ) : null}
      <SubmitButton pending={busy} pendingLabel="Importing..." className="btn-primary w-full sm:w-auto">
        Import statement
      </SubmitButton>
    </Form>
  );
}

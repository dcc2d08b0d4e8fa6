// How an HTML action answers a form that did not go through (docs/decisions/0820-conform-form-pattern.md):
// always Conform's `submission.reply()`, so the page shows the same messages with and without
// JavaScript and keeps what was typed. An action never builds its own `fieldErrors` object
// (app/components/forms/forms-on-conform.test.ts).
import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { retryAfterHeader } from "./result.server";

type Reply = {
  reply: (options?: {
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
    hideFields?: string[];
    resetForm?: boolean;
  }) => SubmissionResult<string[]>;
};

/** What a model says when it refuses (the `ok: false` side of its result). */
export type Refusal = {
  status: number;
  message: string;
  fieldErrors?: Record<string, string[]> | null;
  retryAfterSeconds?: number;
};

type Invalid = Reply & { error?: Record<string, string[] | null> | null };

/**
 * The form's own messages (from its schema): each under its field, status 400. `formMessage`
 * also puts a summary at the top, made from the first message ("Failed to update delivery: ...").
 */
export function replyInvalid(
  submission: Invalid,
  options: { hideFields?: string[]; status?: number; formMessage?: (first: string) => string } = {},
) {
  const first = Object.values(submission.error ?? {}).flatMap((messages) => messages ?? [])[0] ?? "Invalid input";
  const formErrors = options.formMessage ? [options.formMessage(first)] : undefined;
  return data(
    { result: submission.reply({ hideFields: options.hideFields, formErrors }) },
    { status: options.status ?? 400 },
  );
}

/**
 * A model's refusal: messages that belong to a field go under it; a refusal with none shows
 * `formMessage` (the refusal's own message unless given, "Failed to create agent: ...") at the top;
 * `always` shows it at the top even then. `field` puts the refusal's message under that field.
 */
export function replyRefused<Extra extends Record<string, unknown> = Record<never, never>>(
  submission: Reply,
  refusal: Refusal,
  {
    formMessage,
    always = false,
    hideFields,
    headers,
    extra,
    field,
  }: {
    formMessage?: string;
    always?: boolean;
    hideFields?: string[];
    headers?: HeadersInit;
    extra?: Extra;
    field?: string;
  } = {},
) {
  const own = refusal.fieldErrors && Object.keys(refusal.fieldErrors).length ? refusal.fieldErrors : undefined;
  // `field`: the refusal is about that field ("Incorrect password" under Password).
  const underFields = field ? { ...own, [field]: [refusal.message] } : own;
  const atTop = underFields && !always ? undefined : [formMessage ?? refusal.message];
  // A throttled password says when to try again, to a browser's script as to a JSON caller.
  const retryAfter = retryAfterHeader(refusal);
  const allHeaders = new Headers(headers);
  if (retryAfter) allHeaders.set("Retry-After", retryAfter["Retry-After"]);
  return data(
    { ...(extra as Extra), result: submission.reply({ fieldErrors: underFields, formErrors: atTop, hideFields }) },
    { status: refusal.status, headers: allHeaders },
  );
}

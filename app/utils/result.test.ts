import * as z from "zod";
import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "./field-errors";
import { isUuid, parseInvoiceNo } from "./params";
import { fail, failOn, replyOptions } from "./result";
import { failureData, failureJson, retryAfterHeader } from "./result.server";

describe("one result type", () => {
  it("fail and failOn build the shape every model returns", () => {
    expect(fail(404, "Invoice not found")).toEqual({ ok: false, status: 404, message: "Invoice not found" });
    expect(failOn(400, "amount", "Too much")).toEqual({
      ok: false,
      status: 400,
      message: "Too much",
      fieldErrors: { amount: ["Too much"] },
    });
    expect(replyOptions(failOn(409, "name", "Taken"), "Failed: ")).toEqual({
      formErrors: ["Failed: Taken"],
      fieldErrors: { name: ["Taken"] },
    });
  });

  it("failureJson answers {message, errors?} with the failure's status", async () => {
    const plain = failureJson(fail(409, "Already paid"));
    expect(plain.status).toBe(409);
    expect(await plain.json()).toEqual({ message: "Already paid" });
    const withFields = failureJson(failOn(400, "amount", "Bad amount"));
    expect(await withFields.json()).toEqual({ message: "Bad amount", errors: { amount: ["Bad amount"] } });
  });

  it("a failure that says when to try again sends Retry-After in whole seconds, none when it does not", () => {
    expect(retryAfterHeader({ retryAfterSeconds: 90 })).toEqual({ "Retry-After": "90" });
    expect(retryAfterHeader({ retryAfterSeconds: 1.2 })).toEqual({ "Retry-After": "2" });
    for (const retryAfterSeconds of [undefined, 0, -3]) expect(retryAfterHeader({ retryAfterSeconds })).toBeUndefined();
    const throttled = failureJson({ status: 429, message: "Too many attempts", retryAfterSeconds: 60 });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("Retry-After")).toBe("60");
    expect(failureJson(fail(409, "Already paid")).headers.get("Retry-After")).toBeNull();
  });

  it("failureData gives a form its message, field errors ({} when none) and extras", () => {
    const result = failureData(fail(403, "No"), { values: { a: "1" } });
    expect(result.init?.status).toBe(403);
    expect(result.data).toEqual({ message: "No", fieldErrors: {}, values: { a: "1" } });
  });

  it("fieldErrorsOf keys issues by their first path segment, first message on top", () => {
    const parsed = z
      .object({ a: z.string().min(2, "A short"), b: z.number({ message: "B missing" }) })
      .safeParse({ a: "x" });
    expect(parsed.success).toBe(false);
    if (!parsed.success)
      expect(fieldErrorsOf(parsed.error)).toEqual({
        fieldErrors: { a: ["A short"], b: ["B missing"] },
        message: "A short",
      });
  });
});

describe("shared parsers", () => {
  it("parseInvoiceNo keeps digits only, # only in a search", () => {
    expect(parseInvoiceNo(" 00127 ")).toBe("127");
    expect(parseInvoiceNo(127)).toBe("127");
    expect(parseInvoiceNo("#127")).toBeNull();
    expect(parseInvoiceNo("#127", { search: true })).toBe("127");
    for (const bad of ["INV-1", "", "1".repeat(19), null, {}, "1.5"]) expect(parseInvoiceNo(bad)).toBeNull();
  });

  it("isUuid", () => {
    expect(isUuid("0b6f1c9e-8a53-4c4e-9d55-3f1f8a2b7c10")).toBe(true);
    expect(isUuid("42")).toBe(false);
  });
});

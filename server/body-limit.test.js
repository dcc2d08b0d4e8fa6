import { describe, expect, it } from "vitest";
import {
  bodyLimit,
  bodyLimitFor,
  bodyRefusal,
  continueUnlessRefused,
  MAX_BODY_BYTES,
  MAX_PHOTO_JSON_BODY_BYTES,
  MAX_TICKET_JSON_BYTES,
  MAX_UPLOAD_BODY_BYTES,
} from "./body-limit.js";

const post = (pathname, headers) => ({ method: "POST", pathname, ...headers });

describe("request body limits", () => {
  it("allow 1 MB on every path and 16 MB where the logo is uploaded, with or without .data", () => {
    expect(bodyLimitFor("/api/auth/password/login")).toBe(MAX_BODY_BYTES);
    expect(bodyLimitFor("/deliveries/1/edit")).toBe(MAX_BODY_BYTES);
    expect(bodyLimitFor("/settings/business")).toBe(MAX_UPLOAD_BODY_BYTES);
    expect(bodyLimitFor("/settings/business.data")).toBe(MAX_UPLOAD_BODY_BYTES);
    expect(bodyLimitFor("/api/settings/business")).toBe(MAX_UPLOAD_BODY_BYTES);
    expect(bodyLimitFor("/settings/businessx")).toBe(MAX_BODY_BYTES);
    // Routes match whatever the case and with a trailing slash; so does the limit.
    expect(bodyLimitFor("/settings/business/")).toBe(MAX_UPLOAD_BODY_BYTES);
    expect(bodyLimitFor("/Settings/Business")).toBe(MAX_UPLOAD_BODY_BYTES);
  });

  it("allow New Delivery's form a photo file, and its JSON call a 2 MB photo as base64 (decision 1220)", () => {
    expect(bodyLimitFor("/deliveries/new")).toBe(MAX_UPLOAD_BODY_BYTES);
    expect(bodyLimitFor("/deliveries/new.data")).toBe(MAX_UPLOAD_BODY_BYTES);
    expect(bodyLimitFor("/api/deliveries")).toBe(MAX_TICKET_JSON_BYTES);
    expect(bodyLimitFor("/api/deliveries/12")).toBe(MAX_BODY_BYTES);
    expect(MAX_TICKET_JSON_BYTES).toBeGreaterThan(Math.ceil((2 * 1024 * 1024 * 4) / 3) + 64 * 1024);
    expect(bodyRefusal(post("/api/deliveries", { contentLength: String(MAX_TICKET_JSON_BYTES + 1) }))).toMatchObject({
      status: 413,
      message: expect.stringContaining("3 MB"),
    });
  });

  it("allow a ticket's photo on Record Ticket's form (16 MB) and its JSON twin (4 MB) only (decision 1220)", () => {
    expect(bodyLimitFor("/deliveries/12/tickets/new")).toBe(MAX_UPLOAD_BODY_BYTES);
    expect(bodyLimitFor("/deliveries/12/tickets/new.data")).toBe(MAX_UPLOAD_BODY_BYTES);
    expect(bodyLimitFor("/Deliveries/12/Tickets/New/")).toBe(MAX_UPLOAD_BODY_BYTES);
    expect(bodyLimitFor("/api/deliveries/12/tickets")).toBe(MAX_PHOTO_JSON_BODY_BYTES);
    for (const path of [
      "/deliveries/12/edit",
      "/deliveries/12/tickets/new/x",
      "/deliveries/12/13/tickets/new",
      "/api/deliveries/12",
      "/api/deliveries/12/tickets/x",
    ]) {
      expect(bodyLimitFor(path), path).toBe(MAX_BODY_BYTES);
    }
  });

  it("let through a body up to the limit, and reads without a body", () => {
    expect(bodyRefusal(post("/api/deliveries", { contentLength: String(MAX_BODY_BYTES) }))).toBeNull();
    expect(bodyRefusal(post("/api/deliveries", { contentLength: "0" }))).toBeNull();
    expect(bodyRefusal(post("/logout", {}))).toBeNull();
    expect(bodyRefusal({ method: "GET", pathname: "/invoices", transferEncoding: "chunked" })).toBeNull();
    expect(bodyRefusal(post("/settings/business", { contentLength: String(5 * 1024 * 1024) }))).toBeNull();
  });

  it("refuse a declared length over the limit with 413, and one that is not a number with 400", () => {
    expect(bodyRefusal(post("/api/auth/password/login", { contentLength: String(MAX_BODY_BYTES + 1) }))).toEqual({
      status: 413,
      message: "The request body is too large: at most 1 MB is accepted here",
    });
    expect(bodyRefusal(post("/settings/business", { contentLength: String(MAX_UPLOAD_BODY_BYTES + 1) }))).toMatchObject(
      {
        status: 413,
        message: expect.stringContaining("16 MB"),
      },
    );
    expect(bodyRefusal(post("/api/deliveries", { contentLength: "12abc" }))).toMatchObject({ status: 400 });
  });

  it("refuse a body of no declared length with 411", () => {
    expect(bodyRefusal({ method: "PATCH", pathname: "/api/deliveries/1", transferEncoding: "chunked" })).toEqual({
      status: 411,
      message: "A request body must be sent with a Content-Length",
    });
  });

  it("answer the refusal as JSON and close the connection, without calling the app", () => {
    const sent = {};
    const res = {
      status(code) {
        sent.status = code;
        return this;
      },
      set(name, value) {
        sent[name] = value;
        return this;
      },
      type(value) {
        sent.type = value;
        return this;
      },
      send(body) {
        sent.body = body;
      },
    };
    let called = false;
    const req = { method: "POST", path: "/api/payments", headers: { "content-length": "99999999" } };
    bodyLimit()(req, res, () => (called = true));
    expect(called).toBe(false);
    expect(sent).toMatchObject({ status: 413, Connection: "close", type: "application/json" });
    expect(JSON.parse(sent.body).message).toMatch(/too large/);
    bodyLimit()({ ...req, headers: { "content-length": "20" } }, res, () => (called = true));
    expect(called).toBe(true);
  });

  it("tell a client that asks first to send its body only when it is within the limit", () => {
    const seen = [];
    const handler = (req) => seen.push(req.url);
    const ask = (url, length) => {
      let continued = false;
      const req = { method: "POST", url, headers: { "content-length": String(length), expect: "100-continue" } };
      continueUnlessRefused(handler)(req, { writeContinue: () => (continued = true) });
      return continued;
    };
    expect(ask("/api/deliveries?x=1", 500)).toBe(true);
    expect(ask("/api/auth/password/login", 50 * 1024 * 1024)).toBe(false);
    expect(ask("/settings/business.data", 5 * 1024 * 1024)).toBe(true);
    // Paths that `new URL()` refuses: outside Express, a throw here would end the process.
    expect(ask("//", 500)).toBe(true);
    expect(ask("//a b?x", 50 * 1024 * 1024)).toBe(false);
    // The app still gets every one: it answers the refused ones with their 413.
    expect(seen).toHaveLength(5);
  });
});

// Request bodies that are not what they claim (decision 0705): nested thousands deep, not
// UTF-8, or holding half of a UTF-16 pair. Each is a 400 before any model sees it.
import { describe, expect, it } from "vitest";
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, readForm, readJsonBody } from "./http.server";

const json = (body: BodyInit) =>
  new Request("http://localhost/api/payments", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
const form = (body: BodyInit, type = "application/x-www-form-urlencoded") =>
  new Request("http://localhost/deliveries/new", { method: "POST", headers: { "Content-Type": type }, body });

async function refusal(promise: Promise<unknown>) {
  const thrown = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(Response);
  const response = thrown as Response;
  return { status: response.status, text: await response.text() };
}

describe("jsonNestsDeeperThan", () => {
  it("counts arrays and objects, not brackets inside strings", () => {
    expect(jsonNestsDeeperThan('{"a":[[1]]}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[[[1]]]}', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false);
    expect(jsonNestsDeeperThan("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
  });
});

describe("readJsonBody", () => {
  it("reads an object, with a character outside the BMP kept whole", async () => {
    expect(await readJsonBody(json('{"reference":"ok \\ud83d\\ude00","n":[1,{"a":2}]}'))).toEqual({
      reference: "ok 😀",
      n: [1, { a: 2 }],
    });
  });

  it("refuses an id nested 5,000 and 100,000 arrays deep with 400", async () => {
    for (const depth of [5_000, 100_000]) {
      const body = `{"invoiceId":${"[".repeat(depth)}1${"]".repeat(depth)},"amount":"1"}`;
      expect(await refusal(readJsonBody(json(body)))).toEqual({
        status: 400,
        text: JSON.stringify({ message: "The request body is nested too deeply" }),
      });
    }
  });

  it("refuses a lone surrogate in a value or a key, and bytes that are not UTF-8", async () => {
    for (const body of ['{"reference":"a\\ud800"}', '{"a\\udc00":"x"}', '{"list":["\\ud83d"]}']) {
      expect((await refusal(readJsonBody(json(body)))).status).toBe(400);
    }
    const bytes = new Uint8Array([...new TextEncoder().encode('{"reference":"a'), 0xed, 0xa0, 0x80, 0x22, 0x7d]);
    expect(await refusal(readJsonBody(json(bytes)))).toEqual({
      status: 400,
      text: JSON.stringify({ message: "The request body must be UTF-8 text" }),
    });
  });
});

describe("readForm", () => {
  it("reads a form as before, UTF-8 escapes included", async () => {
    const read = await readForm(form("location=Ik%C3%A9ja+yard&tons=1"));
    expect(read.get("location")).toBe("Ikéja yard");
  });

  it("refuses escapes or bytes that are not UTF-8 (a lone surrogate), where they were read as U+FFFD", async () => {
    for (const body of ["location=Yard%ED%A0%80", "location=%FF", "location=%zz"]) {
      expect((await refusal(readForm(form(body)))).status).toBe(400);
    }
    const raw = new Uint8Array([...new TextEncoder().encode("location=Yard"), 0xed, 0xa0, 0x80]);
    expect((await refusal(readForm(form(raw)))).status).toBe(400);
    const multipart = new Uint8Array([
      ...new TextEncoder().encode('--zz\r\nContent-Disposition: form-data; name="location"\r\n\r\nYard'),
      0xff,
      ...new TextEncoder().encode("\r\n--zz--\r\n"),
    ]);
    expect((await refusal(readForm(form(multipart, "multipart/form-data; boundary=zz")))).status).toBe(400);
  });
});

import { describe, expect, it } from "vitest";
import { readUploadForm } from "./upload.server";

function multipart(parts: { name: string; filename?: string; body: string | Buffer }[]) {
  const boundary = "upload-test";
  const chunks = parts.flatMap((p) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"` +
        (p.filename ? `; filename="${p.filename}"\r\nContent-Type: image/png` : "") +
        "\r\n\r\n",
    ),
    Buffer.isBuffer(p.body) ? p.body : Buffer.from(p.body),
    Buffer.from("\r\n"),
  ]);
  return new Request("http://localhost/settings/business", {
    method: "POST",
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
  });
}

describe("readUploadForm", () => {
  it("keeps a file within the limit and the text fields", async () => {
    const upload = await readUploadForm(
      multipart([
        { name: "companyName", body: "Kodan" },
        { name: "logo", filename: "logo.png", body: Buffer.alloc(100, 1) },
      ]),
      200,
    );
    expect(upload.ok).toBe(true);
    const logo = upload.formData!.get("logo") as File;
    expect([logo.name, logo.size, upload.formData!.get("companyName")]).toEqual(["logo.png", 100, "Kodan"]);
  });

  it("drops a file over the limit, names it, and keeps the fields before and after it", async () => {
    const upload = await readUploadForm(
      multipart([
        { name: "companyName", body: "Kodan" },
        { name: "logo", filename: "photo.png", body: Buffer.alloc(5_000, 1) },
        { name: "phone", body: "0803" },
      ]),
      200,
    );
    expect(upload).toMatchObject({ ok: false, field: "logo" });
    const form = upload.formData!;
    expect(form.has("logo")).toBe(false);
    expect([form.get("companyName"), form.get("phone")]).toEqual(["Kodan", "0803"]);
  });

  it("stops at a text part over the limit, with no fields to show", async () => {
    const upload = await readUploadForm(multipart([{ name: "address", body: "x".repeat(5_000) }]), 200);
    expect(upload).toEqual({ ok: false, field: "address", formData: null });
  });
});

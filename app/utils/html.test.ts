import { describe, expect, test } from "vitest";
import { Html, html } from "~/utils/html";

describe("html", () => {
  test("escapes every interpolated value: text never becomes markup or leaves an attribute", () => {
    const name = `<img src=x onerror="alert(1)"> & 'Sons'`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;Sons&#39;">' +
        "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;Sons&#39;</p>",
    );
  });

  test("keeps HTML made by the tag, alone or in a list, and writes nothing for absent values", () => {
    const items = ["a<b", "c"].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}</ul>${false}${null}${undefined}${0}`.value).toBe("<ul><li>a&lt;b</li><li>c</li></ul>0");
    expect(html`${html`<b>${"x"}</b>`}`).toBeInstanceOf(Html);
    expect(html`${["<i>", false, html`<i>${1}</i>`]}`.value).toBe("&lt;i&gt;<i>1</i>");
  });

  test("a plain string that looks like HTML is escaped, not trusted", () => {
    expect(html`${"<b>bold</b>"}`.value).toBe("&lt;b&gt;bold&lt;/b&gt;");
  });
});

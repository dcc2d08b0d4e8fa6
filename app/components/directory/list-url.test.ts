import { describe, expect, it } from "vitest";
import { listSearch, listUrlOf } from "./list-url";

describe("where a directory dialog returns to", () => {
  it("keeps the list's search and page, and nothing else", () => {
    expect(listSearch("?q=Kano&cursor=42&dialog=x&index")).toBe("?q=Kano&cursor=42");
    expect(listSearch("?before=9")).toBe("?before=9");
    expect(listSearch("")).toBe("");
    // An empty search field stays as the list's address had it (decision 0200).
    expect(listSearch("?q=")).toBe("?q=");
    expect(listUrlOf("/agents", "http://x.test/agents/7/edit?q=50%25+share&cursor=3")).toBe(
      "/agents?q=50%25+share&cursor=3",
    );
    expect(listUrlOf("/clients", "http://x.test/clients/new")).toBe("/clients");
  });
});

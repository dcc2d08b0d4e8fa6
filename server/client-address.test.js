import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address.js";

const req = (headers, remoteAddress = "10.0.0.9") => ({ headers, socket: { remoteAddress } });

describe("clientAddress", () => {
  it("ignores forwarding headers unless a trusted one is configured", () => {
    expect(clientAddress(req({ "x-forwarded-for": "1.2.3.4" }), undefined)).toBe("10.0.0.9");
  });
  it("takes the right-most entry of the configured header", () => {
    expect(clientAddress(req({ "x-forwarded-for": "6.6.6.6, 1.2.3.4" }), "X-Forwarded-For")).toBe("1.2.3.4");
    expect(clientAddress(req({}), "X-Forwarded-For")).toBe("10.0.0.9");
  });
});

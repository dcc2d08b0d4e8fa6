import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { withAuditContext } from "../../app/models/audit.server";
import {
  CHALLENGE_TTL_MS,
  consumeChallenge,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  relyingParty,
  verifyPasskeyAuthentication,
  verifyPasskeyRegistration,
} from "../../app/models/passkey.server";
import * as listRoute from "../../app/routes/api.passkeys";
import * as deleteRoute from "../../app/routes/api.passkeys.$id";
import * as regOptionsRoute from "../../app/routes/api.passkeys.register.options";
import * as regVerifyRoute from "../../app/routes/api.passkeys.register.verify";
import * as authOptionsRoute from "../../app/routes/api.passkeys.authenticate.options";
import * as authVerifyRoute from "../../app/routes/api.passkeys.authenticate.verify";
import * as newPage from "../../app/routes/_app.settings.passkeys.new";
import * as deletePage from "../../app/routes/_app.settings.passkeys.$id.delete";
import { describeAccess } from "../access";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { expectEveryEventWorded } from "../audit-words";

const ALL = ["staff", "manager", "admin"] as const;
describeAccess("passkey calls need a signed-in user", [
  { name: "list", handler: listRoute.loader, method: "GET", path: "/api/passkeys", allowed: ALL },
  {
    name: "delete",
    handler: deleteRoute.action,
    method: "DELETE",
    path: "/api/passkeys/1",
    params: { id: "1" },
    allowed: ALL,
  },
  {
    name: "register options",
    handler: regOptionsRoute.action,
    method: "POST",
    path: "/api/passkeys/register/options",
    allowed: ALL,
  },
  {
    name: "register verify",
    handler: regVerifyRoute.action,
    method: "POST",
    path: "/api/passkeys/register/verify",
    json: {},
    allowed: ALL,
  },
  {
    name: "add page",
    handler: newPage.loader,
    method: "GET",
    path: "/settings/passkeys/new",
    allowed: ALL,
    page: true,
  },
  {
    name: "add form",
    handler: newPage.action,
    method: "POST",
    path: "/settings/passkeys/new",
    form: {},
    allowed: ALL,
    page: true,
  },
  {
    name: "delete form",
    handler: deletePage.action,
    method: "POST",
    path: "/settings/passkeys/1/delete",
    params: { id: "1" },
    form: {},
    allowed: ALL,
    page: true,
  },
]);

const fakeCredential = (challenge: string, type = "webauthn.create") => ({
  id: "cred",
  rawId: "cred",
  type: "public-key",
  response: {
    clientDataJSON: Buffer.from(JSON.stringify({ type, challenge, origin: relyingParty().origin })).toString(
      "base64url",
    ),
  },
  clientExtensionResults: {},
});

describe("passkeys", () => {
  it("relying party comes from APP_ORIGIN (default localhost)", () => {
    expect(relyingParty().rpID).toBe("localhost");
  });

  it("challenges are single-use and expire after five minutes", async () => {
    const user = await createUser();
    const now = new Date();
    const options = await passkeyRegistrationOptions(user, now);
    expect(options.rp.id).toBe("localhost");
    expect(options.authenticatorSelection?.residentKey).toBe("required");
    expect(await consumeChallenge(options.challenge, "authenticate", now)).toBeNull();
    expect(await consumeChallenge(options.challenge, "register", now)).toEqual({ userId: user.id });
    expect(await consumeChallenge(options.challenge, "register", now)).toBeNull();

    const late = await passkeyAuthenticationOptions(undefined, now);
    expect(
      await consumeChallenge(late.challenge, "authenticate", new Date(now.getTime() + CHALLENGE_TTL_MS + 1)),
    ).toBeNull();
    const db = await getDb();
    expect(
      await db.select().from(schema.webauthnChallenges).where(eq(schema.webauthnChallenges.challenge, late.challenge)),
    ).toHaveLength(0);
  });

  it("registration needs a device name and a live challenge of this user", async () => {
    const user = await createUser();
    const other = await createUser();
    expect(await verifyPasskeyRegistration(user, { deviceName: " ", credential: {} })).toMatchObject({
      status: 400,
      message: "Please enter a name for this device",
    });
    const mine = await passkeyRegistrationOptions(user);
    const theirs = await verifyPasskeyRegistration(other, {
      deviceName: "Phone",
      credential: fakeCredential(mine.challenge),
    });
    expect(theirs).toMatchObject({ ok: false, message: "Registration verification failed" });
    // The challenge was used up by the failed attempt.
    expect(
      await verifyPasskeyRegistration(user, { deviceName: "Phone", credential: fakeCredential(mine.challenge) }),
    ).toMatchObject({ ok: false });
  });

  it("with an e-mail only that user's passkeys are allowed; unknown e-mails look the same as none", async () => {
    const user = await createUser();
    const db = await getDb();
    await db.insert(schema.passkeys).values({
      userId: user.id,
      credentialId: "abc",
      credentialPublicKey: "AAAA",
      deviceName: "Laptop",
      transports: "internal",
    });
    const options = await passkeyAuthenticationOptions(user.email);
    expect(options.allowCredentials).toEqual([{ id: "abc", type: "public-key", transports: ["internal"] }]);
    const unknown = await passkeyAuthenticationOptions("nobody@example.test");
    expect(unknown.allowCredentials ?? []).toEqual([]);
    const discoverable = await passkeyAuthenticationOptions("");
    expect(discoverable.allowCredentials ?? []).toEqual([]);
    expect(
      await verifyPasskeyAuthentication({ ...fakeCredential(options.challenge, "webauthn.get"), id: "abc" }),
    ).toMatchObject({ ok: false, message: "Authentication verification failed" });
    expect(await verifyPasskeyAuthentication(null)).toMatchObject({ ok: false });
  });

  it("a spent challenge with an unknown passkey, or another account's, is a failed sign-in in the trail", async () => {
    const owner = await createUser();
    const other = await createUser();
    const db = await getDb();
    await db.insert(schema.passkeys).values([
      { userId: owner.id, credentialId: "owned-cred", credentialPublicKey: "AAAA", deviceName: "Phone" },
      { userId: other.id, credentialId: "others-cred", credentialPublicKey: "AAAA", deviceName: "Laptop" },
    ]);
    const failures = async () =>
      (await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "auth.sign_in_failed"))).filter(
        (e) => (e.after as { method?: string } | null)?.method === "passkey",
      );
    const before = (await failures()).length;

    // Each from its own address: an address's refusals reach the trail once per throttle window
    // (decision 0600).
    const from = <T>(clientAddress: string, fn: () => Promise<T>) =>
      withAuditContext({ requestId: null, clientAddress }, fn);
    const anyone = await passkeyAuthenticationOptions(undefined);
    const unknown = await from("192.0.2.61", () =>
      verifyPasskeyAuthentication({ ...fakeCredential(anyone.challenge, "webauthn.get"), id: "never-registered" }),
    );
    expect(unknown).toMatchObject({ ok: false, message: "Authentication verification failed" });
    // The other user's challenge, answered with the owner's passkey.
    const othersChallenge = await passkeyAuthenticationOptions(other.email);
    const crossed = await from("192.0.2.62", () =>
      verifyPasskeyAuthentication({ ...fakeCredential(othersChallenge.challenge, "webauthn.get"), id: "owned-cred" }),
    );
    expect(crossed).toMatchObject({ ok: false, message: "Authentication verification failed" });

    const recorded = (await failures()).slice(before);
    expect(recorded.map((e) => [e.entityId, (e.after as { reason: string }).reason])).toEqual([
      [null, "unknown-passkey"],
      [owner.id, "other-account"],
    ]);
    // A challenge never issued (or already spent) leaves nothing: it costs a stranger nothing.
    expect(
      await verifyPasskeyAuthentication({ ...fakeCredential(anyone.challenge, "webauthn.get"), id: "owned-cred" }),
    ).toMatchObject({ ok: false });
    expect(await failures()).toHaveLength(before + 2);
    // A second refusal from an address in the window is counted, not written again.
    const again = await passkeyAuthenticationOptions(undefined);
    await from("192.0.2.61", () =>
      verifyPasskeyAuthentication({ ...fakeCredential(again.challenge, "webauthn.get"), id: "never-registered" }),
    );
    expect(await failures()).toHaveLength(before + 2);
  });

  it("frozen users cannot sign in with a passkey", async () => {
    const user = await createUser({ status: "frozen" });
    const db = await getDb();
    await db
      .insert(schema.passkeys)
      .values({ userId: user.id, credentialId: "frozen-cred", credentialPublicKey: "AAAA", deviceName: "Phone" });
    const options = await passkeyAuthenticationOptions(undefined);
    const result = await verifyPasskeyAuthentication({
      ...fakeCredential(options.challenge, "webauthn.get"),
      id: "frozen-cred",
    });
    expect(result).toMatchObject({ ok: false, status: 403 });
  });

  it("lists and deletes only the user's own passkeys over the API", async () => {
    const { user, cookie } = await loginAs("staff");
    const other = await createUser();
    const db = await getDb();
    const [mine] = await db
      .insert(schema.passkeys)
      .values({ userId: user.id, credentialId: "m1", credentialPublicKey: "AAAA", deviceName: "Mine" })
      .returning();
    const [theirs] = await db
      .insert(schema.passkeys)
      .values({ userId: other.id, credentialId: "t1", credentialPublicKey: "AAAA", deviceName: "Theirs" })
      .returning();
    const list = await call(listRoute.loader, makeRequest("/api/passkeys", { cookie }));
    expect(list.body).toEqual([{ id: mine.id, deviceName: "Mine", createdAt: expect.any(String), lastUsedAt: null }]);
    expect(
      (
        await call(deleteRoute.action, makeRequest(`/api/passkeys/${theirs.id}`, { method: "DELETE", cookie }), {
          id: String(theirs.id),
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(deleteRoute.action, makeRequest("/api/passkeys/99999999999", { method: "DELETE", cookie }), {
          id: "99999999999",
        })
      ).status,
    ).toBe(404);
    expect(
      await call(deleteRoute.action, makeRequest(`/api/passkeys/${mine.id}`, { method: "DELETE", cookie }), {
        id: String(mine.id),
      }),
    ).toMatchObject({ status: 200, body: { message: "Passkey deleted successfully" } });
    const opts = await call(
      authOptionsRoute.action,
      makeRequest("/api/passkeys/authenticate/options", { method: "POST", json: {} }),
    );
    expect(opts.status).toBe(200);
    const bad = await call(
      authVerifyRoute.action,
      makeRequest("/api/passkeys/authenticate/verify", { method: "POST", json: { credential: {} } }),
    );
    expect(bad).toMatchObject({
      status: 400,
      body: { message: "Authentication verification failed", verified: false },
    });
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

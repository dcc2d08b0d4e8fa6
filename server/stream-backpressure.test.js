/* global ReadableStream, setTimeout */
// The patched @remix-run/node writeReadableStreamToWritable (patches/@remix-run+node+2.17.5.patch,
// decision 0502): a streamed answer (a full JSON list, a CSV, a PDF) is read at the client's
// pace, through the server's own gzip, and a client that goes away stops the read.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { writeReadableStreamToWritable } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";

// Random bytes: gzip cannot shrink them, so what is read is what must be sent.
const CHUNK = randomBytes(64 * 1024);
const CHUNKS = 1000; // 64 MB, far more than the loopback socket's buffers hold

function counted() {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream({
    pull(controller) {
      if (state.pulled === CHUNKS) return controller.close();
      state.pulled++;
      controller.enqueue(new Uint8Array(CHUNK));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { state, stream };
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const servers = [];
afterEach(() =>
  Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise((resolve) => s.close(resolve));
    }),
  ),
);

/** How many chunks were read once reading stopped (gzip on a busy machine takes a while to fill the buffers). */
async function settled(state) {
  let last = -1;
  for (let i = 0; i < 50 && state.pulled !== last; i++) {
    last = state.pulled;
    await wait(400);
  }
  return state.pulled;
}

async function serve(withCompression, { answerAfterMs = 0 } = {}) {
  const source = counted();
  const done = { error: null, finished: false };
  const app = express();
  if (withCompression) app.use(compression({ level: 1 }));
  app.get("/", async (req, res) => {
    // The loader's time before the first byte (a statement's figures, a first batch).
    if (answerAfterMs) await wait(answerAfterMs);
    res.setHeader("Content-Type", "application/octet-stream");
    writeReadableStreamToWritable(source.stream, res).then(
      () => (done.finished = true),
      (error) => (done.error = error),
    );
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return { source, done, port: server.address().port };
}

/** Opens the download and reads nothing: the socket's buffers fill, then the server must wait. */
function stalledClient(port, headers) {
  return new Promise((resolve) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/", headers }, (response) => {
      response.pause();
      resolve({ request, response });
    });
  });
}

describe.each([
  ["without gzip", false, {}],
  ["through the server's gzip", true, { "Accept-Encoding": "gzip" }],
])("a streamed answer %s", (_name, withCompression, headers) => {
  it("is read no faster than the client takes it, and all of it once the client reads", async () => {
    const { source, done, port } = await serve(withCompression);
    const { response } = await stalledClient(port, headers);
    const whileStalled = await settled(source.state);
    console.log(`stalled client: ${whileStalled} of ${CHUNKS} chunks read`);
    await wait(500);
    // The socket's buffers hold a few MB; the rest waits in the database, not in memory.
    expect(source.state.pulled).toBe(whileStalled);
    expect(whileStalled).toBeLessThan(CHUNKS / 4);
    let received = 0;
    response.on("data", (chunk) => (received += chunk.length));
    response.resume();
    await new Promise((resolve) => response.on("end", resolve));
    expect(source.state.pulled).toBe(CHUNKS);
    expect(done).toEqual({ error: null, finished: true });
    if (!withCompression) expect(received).toBe(CHUNKS * CHUNK.length);
    // 64 MB through gzip on a busy machine (CI runs other suites beside this one).
  }, 60_000);

  it("stops reading when the client goes away", async () => {
    const { source, done, port } = await serve(withCompression);
    const { request } = await stalledClient(port, headers);
    await wait(300);
    request.destroy();
    await wait(300);
    expect(source.state.cancelled).toBe(true);
    expect(source.state.pulled).toBeLessThan(CHUNKS / 4);
    expect(done.error).toBeNull();
  }, 30_000);

  it("stops reading when the client went away before the first byte", async () => {
    const { source, done, port } = await serve(withCompression, { answerAfterMs: 300 });
    const request = http.get({ host: "127.0.0.1", port, path: "/", headers });
    request.on("error", () => {});
    await wait(100);
    request.destroy();
    await wait(800);
    expect(source.state.cancelled).toBe(true);
    expect(source.state.pulled).toBeLessThan(CHUNKS / 4);
    expect(done.error).toBeNull();
  }, 30_000);
});

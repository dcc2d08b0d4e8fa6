/* global setTimeout */
// Preloaded into the app for the drain test only (node --import): a request carrying
// `x-ops-delay-ms` is held that long before Express sees it, so it is in flight, then it runs
// normally (and reaches the database) while the server drains. Writes "ops-slow-start" on
// stderr when one is held, so the test knows when all are in flight.
import http from "node:http";

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function patchedEmit(event, request, ...rest) {
  if (event === "request") {
    const delay = Number(request.headers["x-ops-delay-ms"]);
    if (delay > 0) {
      process.stderr.write("ops-slow-start\n");
      setTimeout(() => emit.call(this, event, request, ...rest), delay);
      return true;
    }
  }
  return emit.call(this, event, request, ...rest);
};

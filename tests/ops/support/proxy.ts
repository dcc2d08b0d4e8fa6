// A small round-robin HTTP proxy in front of several app instances (as any load balancer would).
import http from "node:http";

export async function startProxy(port: number, targets: number[]) {
  let next = 0;
  const server = http.createServer((req, res) => {
    const target = targets[next++ % targets.length];
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: target,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": "127.0.0.1" },
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, { ...reply.headers, "x-ops-instance": String(target) });
        reply.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ message: "bad gateway" }));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

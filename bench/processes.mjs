// What the bench scripts share to run a command, wait for the app's server and sign in as the
// seeded bench admin (bench/seed.ts).
import { spawn } from "node:child_process";

/**
 * Runs a command to its end; resolves with its output, rejects with the end of its errors (or,
 * with `anyExit`, resolves with the output whatever the exit code: a report that fails on what it finds).
 */
export function run(cmd, args, env = {}, { cwd, anyExit = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) =>
      code === 0 || anyExit
        ? resolve(out)
        : reject(new Error(`${cmd} ${args.join(" ")}: ${code}\n${err.slice(-2000)}`)),
    );
  });
}

/**
 * Waits until the server `child` answers its sign-in page on `port`; stops it if it never does,
 * with what `output()` returns (the server's errors, when the caller kept them) in the message.
 */
export async function waitForServer(child, port, { tries = 240, output = () => "" } = {}) {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(`http://localhost:${port}/login`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error(`the server on port ${port} did not start\n${output()}`);
}

/** Signs in on `port` with the bench password; returns the session cookie ("name=value"). */
export async function benchSignIn(port, email = "bench-admin@example.com") {
  const res = await fetch(`http://localhost:${port}/api/auth/password/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: `http://localhost:${port}` },
    body: JSON.stringify({ email, password: "bench-password-123" }),
  });
  if (res.status !== 200) throw new Error(`bench sign-in: ${res.status}`);
  return res.headers.get("set-cookie").split(";")[0];
}

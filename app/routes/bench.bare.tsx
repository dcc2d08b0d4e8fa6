// The bench's yardstick (bench/run.mjs): a page with no data of its own, served by the same
// server and root as every page. Exists only when the server runs with BENCH_BARE=1.
export function loader() {
  if (process.env.BENCH_BARE !== "1") throw new Response("Not Found", { status: 404 });
  return null;
}

export default function BarePage() {
  return <p>Bare page</p>;
}

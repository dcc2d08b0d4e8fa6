#!/usr/bin/env bash
# Does the deliveries page cost the same with 1,000 and 1,000,000 deliveries?
# Builds two PostgreSQL databases (needs DATABASE_URL pointing at a server where we may
# CREATE DATABASE), fills them with generate_series, starts the built app on each in turn and
# loads /deliveries (first page and a deep cursor page) and /api/deliveries?limit=50 with
# bench/http-load.mjs. Only this machine is targeted. Usage: bash bench/deliveries-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL to a PostgreSQL server}"
PORT="${BENCH_PORT:-3390}"
SECONDS_PER_RUN="${BENCH_SECONDS:-8}"
OUT="bench/out"; mkdir -p "$OUT"
base="${DATABASE_URL%/*}"

for rows in 1000 1000000; do
  db="pks_bench_${rows}"
  psql "$DATABASE_URL" -qc "drop database if exists $db with (force)" -c "create database $db"
  url="$base/$db"
  DATABASE_URL="$url" npx tsx db/migrate.ts >/dev/null
  psql "$url" -q <<SQL
insert into users (email, password, role) values ('bench-admin@example.com', '\$2b\$10\$abcdefghijklmnopqrstuuJ0oP7sRkIr3x3kq0e1m1dDqLh3rXG2u', 'admin');
insert into agents (name) select 'Agent ' || g from generate_series(1, 50) g;
insert into clients (name) values ('Kodan');
insert into deliveries (date, agent_id, client_id, tons, location, status, created_by, buying_rate, selling_rate)
  select date '2020-01-01' + (g % 2400), 1 + g % 50, 1, (10 + g % 30)::numeric, 'Yard ' || (g % 40), 'confirmed',
         (select id from users limit 1), 52000, 65000
  from generate_series(1, $rows) g;
analyze;
SQL
  # A session for the bench admin, signed like the app signs it.
  sid="bench-session-$rows"
  psql "$url" -qc "insert into sessions (sid, sess, expire, user_id) select '$sid', '{}', now() + interval '8 hours', id from users limit 1"
  cookie=$(SESSION_SECRET=bench-secret node -e "
    const { createCookie } = require('@remix-run/node');
    createCookie('__session', { secrets: ['bench-secret'] }).serialize('$sid').then((c) => console.log(c.split(';')[0]));")
  deep=$(psql "$url" -tAc "select to_char(date, 'YYYY-MM-DD') || '_' || id from deliveries order by date desc, id desc offset $((rows / 2)) limit 1")
  NODE_ENV=production PORT=$PORT DATABASE_URL="$url" SESSION_SECRET=bench-secret APP_ORIGIN="http://localhost:$PORT" node server.js >"$OUT/server-$rows.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 60); do curl -sf "http://localhost:$PORT/login" >/dev/null && break; sleep 0.5; done
  for path in "/deliveries" "/deliveries?cursor=$deep" "/api/deliveries?limit=50"; do
    result=$(node bench/http-load.mjs --url "http://localhost:$PORT$path" --cookie "$cookie" --connections 10 --seconds "$SECONDS_PER_RUN")
    echo "rows=$rows $result" | tee -a "$OUT/deliveries-scale.txt"
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  psql "$DATABASE_URL" -qc "drop database if exists $db with (force)"
done

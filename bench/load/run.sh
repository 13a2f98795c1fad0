#!/usr/bin/env bash
# Load benchmark of `receipt serve`: starts the server on 127.0.0.1, runs wrk at concurrency 1, 16 and 64 for a
# bounded time each, stops the server with SIGTERM (it must exit 0) and writes bench/results/load-<device>.json.
# Only deliberate 429s are tolerated; any other non-200 status or socket error fails the run.
#
# Usage: bench/load/run.sh [MODEL_DIR]
#   MODEL_DIR  default models/receipt-t5-small when it holds a checkpoint, else tests/golden/t5-tiny-v10
# Env: BUILD_DIR (build), DEVICE (cpu), DURATION (20s per level), CONCURRENCY ("1 16 64"), PORT (18080),
#      OUT (bench/results/load-$DEVICE.json), SERVE_ARGS (extra `receipt serve` flags).
set -euo pipefail
cd "$(dirname "$0")/../.."

BUILD_DIR=${BUILD_DIR:-build}
BIN=$BUILD_DIR/bin/receipt
DEVICE=${DEVICE:-cpu}
DURATION=${DURATION:-20s}
CONCURRENCY=${CONCURRENCY:-"1 16 64"}
PORT=${PORT:-18080}
OUT=${OUT:-bench/results/load-$DEVICE.json}
MODEL=${1:-models/receipt-t5-small}
if [ ! -f "$MODEL/model.safetensors" ]; then
    echo "no checkpoint in $MODEL, using tests/golden/t5-tiny-v10 (random weights)" >&2
    MODEL=tests/golden/t5-tiny-v10
fi
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 2; }
[ -x "$BIN" ] || { echo "no $BIN: build first (scripts/setup)" >&2; exit 2; }

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -TERM "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# shellcheck disable=SC2086
"$BIN" serve --model "$MODEL" --device "$DEVICE" --host 127.0.0.1 --port "$PORT" --no-access-log \
    ${SERVE_ARGS:-} 2>"$WORK/server.log" &
SERVER_PID=$!

for _ in $(seq 600); do
    if curl -fs "http://127.0.0.1:$PORT/health" >/dev/null 2>&1; then break; fi
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; echo "server exited" >&2; exit 1; }
    sleep 0.5
done
curl -fs "http://127.0.0.1:$PORT/health" >/dev/null || { echo "server not ready" >&2; exit 1; }

for c in $CONCURRENCY; do
    threads=$(( c < 4 ? c : 4 ))
    echo "concurrency $c for $DURATION ..." >&2
    wrk -t "$threads" -c "$c" -d "$DURATION" --timeout 120s -s bench/load/predict.lua \
        "http://127.0.0.1:$PORT" >"$WORK/wrk-$c.txt"
    grep '^{' "$WORK/wrk-$c.txt" | tail -1 >"$WORK/run-$c.json"
    cat "$WORK/run-$c.json" >&2
done
curl -fs "http://127.0.0.1:$PORT/metrics" >"$WORK/metrics.txt" || true

kill -TERM "$SERVER_PID"
server_status=0
wait "$SERVER_PID" || server_status=$?
SERVER_PID=""

mkdir -p "$(dirname "$OUT")"
python3 - "$WORK" "$OUT" "$MODEL" "$DEVICE" "$DURATION" "$server_status" "$CONCURRENCY" "${SERVE_ARGS:-}" <<'PY'
import json, os, platform, subprocess, sys, datetime
work, out, model, device, duration, server_status, levels, serve_args = sys.argv[1:9]
runs = []
bad = []
for c in levels.split():
    r = json.load(open(os.path.join(work, f"run-{c}.json")))
    r = {"concurrency": int(c), **r}
    runs.append(r)
    for code, n in r["status"].items():
        if code not in ("200", "429") and n:
            bad.append(f"concurrency {c}: {n} x HTTP {code}")
    if any(r["socket_errors"].values()):
        bad.append(f"concurrency {c}: socket errors {r['socket_errors']}")
metrics = {}
try:
    for line in open(os.path.join(work, "metrics.txt")):
        if line.startswith(("receipt_batch_size_sum", "receipt_batch_size_count", "receipt_model_load_seconds",
                            "receipt_input_tokens_total", "receipt_output_tokens_total")):
            k, v = line.split()
            metrics[k] = float(v)
except OSError:
    pass
try:
    commit = subprocess.check_output(["git", "rev-parse", "--short", "HEAD"], text=True).strip()
except Exception:
    commit = ""
result = {
    "benchmark": "receipt serve, wrk POST /predict, one receipt per request",
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "commit": commit,
    "host": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count()},
    "model": model, "device": device, "duration_per_level": duration, "serve_args": serve_args,
    "server_exit_status": int(server_status),
    "runs": runs,
    "server_metrics": metrics,
    "mean_batch_size": (metrics.get("receipt_batch_size_sum", 0) / metrics["receipt_batch_size_count"])
                       if metrics.get("receipt_batch_size_count") else None,
    "ok": not bad and int(server_status) == 0,
    "problems": bad + ([f"server exited with {server_status}"] if int(server_status) else []),
}
json.dump(result, open(out, "w"), indent=2)
print(json.dumps({k: result[k] for k in ("ok", "problems")}))
sys.exit(0 if result["ok"] else 1)
PY
echo "wrote $OUT" >&2

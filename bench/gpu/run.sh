#!/usr/bin/env bash
# GPU benchmark, all steps in one go (run on the GPU machine from a CUDA build):
#   1. t5-small / t5-base shaped random checkpoints (transformers, cached in bench/cache/gpu)
#   2. receipt-engine: bench_gpu per model and dtype (fp16, fp16-a32) -> bench/results/gpu-<model>-receipt-<dtype>.json
#   3. transformers eager generate, fp32 and fp16                   -> bench/results/gpu-<model>-hf.json
#   4. chart (optional, needs matplotlib)                            -> bench/results/gpu-bench.png
# Usage: bench/gpu/run.sh [BUILD_DIR]      (default: build; needs BUILD_DIR/bin/bench_gpu)
# Env: MODELS (default "t5-small t5-base"), DTYPES (default "fp16 fp16-a32": the benchmark's fp16 and the CLI's
#      default precision), SKIP_HF=1 to skip transformers.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${1:-${BUILD_DIR:-build}}
MODELS=${MODELS:-"t5-small t5-base"}
DTYPES=${DTYPES:-"fp16 fp16-a32"}
WORK=bench/cache/gpu
RESULTS=bench/results
mkdir -p "$WORK" "$RESULTS"
BENCH="$BUILD_DIR/bin/bench_gpu"
[ -x "$BENCH" ] || { echo "missing $BENCH: build with CUDA first (cmake --build $BUILD_DIR --target bench_gpu)" >&2; exit 2; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true

python3 bench/gpu/make_random_t5.py "$WORK" --models "$(echo $MODELS | tr ' ' ',')"

files=()
for m in $MODELS; do
    for dt in $DTYPES; do
        out="$RESULTS/gpu-$m-receipt-$dt.json"
        echo "== receipt-engine $m $dt"
        "$BENCH" --model "$WORK/$m" --dtype "$dt" --batches 1,8,64 --input-tokens 384 --new-tokens 128 \
            --iters 5 --out "$out" > /dev/null
        files+=("$out")
    done
    if [ "${SKIP_HF:-0}" != "1" ]; then
        out="$RESULTS/gpu-$m-hf.json"
        echo "== transformers $m fp32, fp16"
        python3 bench/gpu/bench_hf.py --model "$WORK/$m" --out "$out" --dtypes fp32,fp16 --batches 1,8,64 --iters 3
        files+=("$out")
    fi
done

python3 bench/gpu/plot.py "$RESULTS/gpu-bench.png" "${files[@]}" || echo "chart skipped (matplotlib missing?)"

# Summary against the targets (ms per receipt): t5-small <= 8 @1, <= 0.35 @64; t5-base <= 20 @1, <= 1.0 @64.
python3 - "${files[@]}" <<'PY'
import json, os, sys
targets = {"t5-small": {1: 8.0, 64: 0.35}, "t5-base": {1: 20.0, 64: 1.0}}
for path in sys.argv[1:]:
    rep = json.load(open(path))
    model = os.path.basename(rep["model"].rstrip("/"))
    for r in rep["results"]:
        tag = r.get("dtype", rep.get("dtype"))
        t = targets.get(model, {}).get(r["batch"])
        verdict = "" if t is None or "transformers" in rep["benchmark"] else ("  OK" if r["ms_per_receipt"] <= t else f"  MISS (target {t})")
        print(f"{os.path.basename(path):38s} {tag:8s} batch {r['batch']:3d}: {r['ms_per_receipt']:9.3f} ms/receipt{verdict}")
PY

#!/usr/bin/env bash
# CPU benchmark: our fp32 engine vs Hugging Face transformers (PyTorch fp32) vs CTranslate2 (fp32, int8) on a
# random-weight t5-small, 384 input tokens, exactly 128 generated tokens, greedy, batch 1 and 8, same thread count.
#
# Usage: bench/cpu/run.sh [THREADS]          (default: all logical CPUs)
# Writes bench/results/cpu-<host tag>-<THREADS>t.json and prints a table. See docs/benchmarks.md.
#
# Environment:
#   VENV=DIR        use (or create) this virtualenv instead of bench/.venv; missing packages are pip-installed
#   PYTHON=python3  use this interpreter as it is (no venv, no pip): e.g. a machine without internet whose python3
#                   already has torch and transformers; engines whose packages are missing are skipped with a note
#   BUILD_DIR=build CMake build folder for bench_cpu (configured when missing)
#   HOST_TAG=...    name in the results file (default: CPU model + core count, e.g. amd-epyc-2c)
#   ROUNDS=2 RUNS_B1=3 RUNS_B8=1 WARMUP=1 WARMUP_B8=0 ENGINES=receipt,hf,ct2-fp32,ct2-int8 BATCHES=1,8
# The default path creates bench/.venv and installs torch (CPU wheels), transformers, safetensors, sentencepiece
# and ctranslate2 from PyPI. If that fails (no network) and python3 already has torch + transformers, it falls back
# to python3 as in PYTHON=python3.
set -euo pipefail
cd "$(dirname "$0")/../.."

THREADS=${1:-$(nproc)}
BUILD_DIR=${BUILD_DIR:-build}
WORK=bench/cache
MODEL=$WORK/t5-small-random
mkdir -p "$WORK" bench/results
NOTES=()

# --- our engine -------------------------------------------------------------------------------------------------
if [ ! -f "$BUILD_DIR/build.ninja" ] && [ ! -f "$BUILD_DIR/Makefile" ]; then
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD_DIR" -j "$(nproc)" --target bench_cpu
BENCH_BIN=$BUILD_DIR/bin/bench_cpu

# --- Python peers -----------------------------------------------------------------------------------------------
have() { "$1" -c "import $2" >/dev/null 2>&1; }
pip_install() {  # pip_install PY PKG...: installs what cannot be imported yet; returns non-zero on failure
    local py=$1; shift
    local want=()
    for p in "$@"; do have "$py" "$p" || want+=("$p"); done
    [ ${#want[@]} -eq 0 ] && return 0
    if [[ " ${want[*]} " == *" torch "* ]]; then
        "$py" -m pip install -q --index-url https://download.pytorch.org/whl/cpu torch || return 1
        want=("${want[@]/torch}")
    fi
    local rest=()
    for p in "${want[@]}"; do [ -n "$p" ] && rest+=("$p"); done
    [ ${#rest[@]} -eq 0 ] || "$py" -m pip install -q "${rest[@]}"
}
PEERS=(torch transformers safetensors sentencepiece ctranslate2)
if [ -n "${PYTHON:-}" ]; then
    PY=$PYTHON
    NOTES+=("peers run with $($PY -c 'import sys; print(sys.executable)') as found (no installs)")
else
    VENV_DIR=${VENV:-bench/.venv}
    [ -x "$VENV_DIR/bin/python" ] || python3 -m venv "$VENV_DIR"
    PY=$VENV_DIR/bin/python
    if ! pip_install "$PY" "${PEERS[@]}"; then
        if ! have "$PY" torch || ! have "$PY" transformers; then
            if have python3 torch && have python3 transformers; then
                echo "pip install failed; falling back to python3 with its own torch / transformers" >&2
                PY=$(command -v python3)
                NOTES+=("pip install failed (offline?): peers run with system python3")
            else
                echo "error: cannot install torch / transformers and python3 lacks them" >&2
                exit 1
            fi
        else
            NOTES+=("some peer packages could not be installed")
        fi
    fi
fi
have "$PY" torch && have "$PY" transformers && have "$PY" safetensors || { echo "error: $PY lacks torch / transformers / safetensors" >&2; exit 1; }

# --- checkpoint, inputs, CTranslate2 conversions ------------------------------------------------------------------
"$PY" bench/cpu/make_random_t5.py "$MODEL"
"$BENCH_BIN" --model "$MODEL" --dump-inputs "$WORK/inputs.json" --n-inputs 8 --input-len 384

CT2_ARGS=()
if have "$PY" ctranslate2; then
    stamp=$(stat -c %Y "$MODEL/model.safetensors")
    for q in float32 int8; do
        dir=$WORK/ct2-$q
        if [ "$(cat "$dir/.source-stamp" 2>/dev/null)" != "$stamp" ]; then
            "$PY" bench/cpu/bench_peers.py convert --model "$MODEL" --out "$dir" --quantization "$q" >/dev/null 2>&1 \
                && echo "$stamp" > "$dir/.source-stamp" || echo "CTranslate2 $q conversion failed" >&2
        fi
    done
    [ -f "$WORK/ct2-float32/.source-stamp" ] && CT2_ARGS+=(--ct2-fp32 "$WORK/ct2-float32")
    [ -f "$WORK/ct2-int8/.source-stamp" ] && CT2_ARGS+=(--ct2-int8 "$WORK/ct2-int8")
else
    echo "ctranslate2 is not importable by $PY: CTranslate2 columns skipped" >&2
fi

# --- run ----------------------------------------------------------------------------------------------------------
if [ -z "${HOST_TAG:-}" ]; then
    cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | tr 'A-Z' 'a-z' \
          | sed -E 's/\(r\)|\(tm\)|cpu|processor|@.*//g; s/[0-9]+-core//g; s/[^a-z0-9]+/-/g; s/^-+|-+$//g' | cut -c1-32)
    HOST_TAG=${cpu:-cpu}-$(nproc)c
fi
OUT=bench/results/cpu-$HOST_TAG-${THREADS}t.json
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
NOTE_ARGS=()
for n in "${NOTES[@]+"${NOTES[@]}"}"; do NOTE_ARGS+=(--note "$n"); done
"$PY" bench/cpu/driver.py --threads "$THREADS" --bench-bin "$BENCH_BIN" --python "$PY" --model "$MODEL" \
    --inputs "$WORK/inputs.json" "${CT2_ARGS[@]+"${CT2_ARGS[@]}"}" \
    --engines "${ENGINES:-receipt,hf,ct2-fp32,ct2-int8}" --batches "${BATCHES:-1,8}" \
    --rounds "${ROUNDS:-2}" --runs-b1 "${RUNS_B1:-3}" --runs-b8 "${RUNS_B8:-1}" --warmup "${WARMUP:-1}" --warmup-b8 "${WARMUP_B8:-0}" \
    --out "$OUT" --log "$WORK/run.log" "${NOTE_ARGS[@]+"${NOTE_ARGS[@]}"}"

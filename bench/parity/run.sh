#!/usr/bin/env bash
# fp16 storage experiment (bench/parity/fp16_sim.py) in a virtualenv of its own (bench/.venv-parity: torch CPU
# wheels, transformers, sentencepiece, safetensors from PyPI). Needs no GPU.
#
# Usage: bench/parity/run.sh DATA.jsonl [VARIANTS] [LIMIT]
#   VARIANTS  default "all,-norm,-q+k+v,-ctx,-h+hg"; LIMIT default 0 (all receipts)
# Writes bench/results/parity-fp16-sim-<data name>.json. Env: MODEL (models/receipt-t5-small), VENV.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:?usage: bench/parity/run.sh DATA.jsonl [VARIANTS] [LIMIT]}
VARIANTS=${2:-all,-norm,-q+k+v,-ctx,-h+hg}
LIMIT=${3:-0}
MODEL=${MODEL:-models/receipt-t5-small}
VENV_DIR=${VENV:-bench/.venv-parity}
if [ ! -x "$VENV_DIR/bin/python" ]; then
    python3 -m venv "$VENV_DIR"
    "$VENV_DIR/bin/pip" install -q --index-url https://download.pytorch.org/whl/cpu torch
    "$VENV_DIR/bin/pip" install -q transformers sentencepiece safetensors
fi
mkdir -p bench/results
name=$(basename "$DATA" .jsonl)
"$VENV_DIR/bin/python" bench/parity/fp16_sim.py --model "$MODEL" --data "$DATA" --variants "$VARIANTS" \
    --limit "$LIMIT" --out "bench/results/parity-fp16-sim-$name.json"

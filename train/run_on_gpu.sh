#!/usr/bin/env bash
# Train receipt-t5-small on a machine with an NVIDIA GPU and export it to models/receipt-t5-small/.
#
#   bash train/run_on_gpu.sh                      # fresh run, MAX_MINUTES (default 11) of wall time in all
#   RESUME=train/out/ckpt bash train/run_on_gpu.sh  # continue a run that was stopped or killed
#
# Needs python3 with torch, transformers, sentencepiece, safetensors, numpy (no network). Expects the data from
# train/make_data.py under train/out/data/ and the tokenizer from train/train_tokenizer.sh in the model folder;
# both are made beforehand on any machine (they need no GPU) and copied along with train/out/.
# Extra arguments are passed to train/train.py (e.g. --batch-size 128).
# Env: DATA (train/out/data), MODEL (models/receipt-t5-small: tokenizer, export target), OUT_MODEL (export folder,
# default MODEL), MAX_MINUTES, LOG, NPROC (GPUs to train on, data parallel; default all visible GPUs).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-train/out/data}
MODEL=${MODEL:-models/receipt-t5-small}
OUT_MODEL=${OUT_MODEL:-$MODEL}
MAX_MINUTES=${MAX_MINUTES:-11}
LOG=${LOG:-train/out/train.log}
NPROC=${NPROC:-$(python3 -c 'import torch; print(max(1, torch.cuda.device_count()))' 2>/dev/null || echo 1)}

TRAIN_FILE=$DATA/train.jsonl
[[ -f $TRAIN_FILE ]] || TRAIN_FILE=$DATA/train.jsonl.gz
for f in "$TRAIN_FILE" "$DATA/val_synth.jsonl" "$DATA/val.jsonl" "$MODEL/spiece.model"; do
    [[ -f $f ]] || { echo "missing $f: run train/make_data.py and train/train_tokenizer.sh first" >&2; exit 1; }
done
if [[ $NPROC -gt 1 ]]; then
    LAUNCH=(torchrun --standalone --nproc_per_node "$NPROC")
else
    LAUNCH=(python3 -u)
fi
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader || true
python3 -c 'import torch, transformers, sentencepiece, safetensors; print("torch", torch.__version__, "cuda", torch.cuda.is_available(), "transformers", transformers.__version__)'

mkdir -p "$(dirname "$LOG")"
PYTHONUNBUFFERED=1 "${LAUNCH[@]}" train/train.py \
    --train "$TRAIN_FILE" \
    --val "$DATA/val_synth.jsonl" \
    --val "$DATA/val.jsonl" \
    --val "$DATA/dev_ja.jsonl" \
    --spm "$MODEL/spiece.model" \
    --out "$OUT_MODEL" \
    --ckpt-dir train/out/ckpt \
    --max-minutes "$MAX_MINUTES" \
    ${RESUME:+--resume "$RESUME"} \
    "$@" 2>&1 | tee "$LOG"

# The store names and item descriptions of the training data, for the runtime (src/extract/known_names.h).
python3 train/known_names.py --data "$TRAIN_FILE" --out-dir "$OUT_MODEL"

echo "---- final metrics ($OUT_MODEL/metrics.json)"
cat "$OUT_MODEL/metrics.json"
ls -la "$OUT_MODEL"

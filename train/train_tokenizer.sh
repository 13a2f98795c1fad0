#!/usr/bin/env bash
# Train the SentencePiece tokenizer (unigram, ~8k pieces, T5 ids) on the training texts and targets.
#
#   train/train_tokenizer.sh [DATA_DIR] [MODEL_DIR]     defaults: train/out/data models/receipt-t5-small
#
# Needs `spm_train` (Debian/Ubuntu package `sentencepiece`) and python3. Reads DATA_DIR/train.jsonl.gz, which
# train/make_data.py writes. Choices:
#   - T5 ids: pad 0, eos 1, unk 2, no bos.
#   - normalization_rule_name=identity: no NFKC, so half-width katakana (ｵﾆｷﾞﾘ), ¥ and full-width forms survive the
#     round trip and the decoder can copy descriptions exactly as printed.
#   - byte_fallback: any character outside the vocabulary (and the "\n" between OCR boxes, which never appears
#     inside one training sentence) becomes <0x..> byte pieces instead of <unk>.
#   - split_digits: every digit is its own piece, so amounts are copied digit by digit.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA_DIR=${1:-train/out/data}
MODEL_DIR=${2:-models/receipt-t5-small}
VOCAB=${VOCAB:-8000}
WORK=train/out/spm
mkdir -p "$WORK" "$MODEL_DIR"

# One sentence per OCR line, plus every target line; the serialisation symbols are guaranteed by the targets.
python3 - "$DATA_DIR/train.jsonl.gz" "$WORK/input.txt" <<'EOF'
import gzip, json, sys
with gzip.open(sys.argv[1], "rt", encoding="utf-8") as f, open(sys.argv[2], "w", encoding="utf-8") as out:
    for line in f:
        r = json.loads(line)
        for t in r["text"].split("\n"):
            if t.strip():
                out.write(t.strip() + "\n")
        out.write(r["target"] + "\n")
EOF

spm_train \
    --input="$WORK/input.txt" \
    --model_prefix="$WORK/spiece" \
    --model_type=unigram \
    --vocab_size="$VOCAB" \
    --character_coverage=0.9995 \
    --byte_fallback=true \
    --split_digits=true \
    --normalization_rule_name=identity \
    --pad_id=0 --eos_id=1 --unk_id=2 --bos_id=-1 \
    --pad_piece='<pad>' --eos_piece='</s>' --unk_piece='<unk>' \
    --input_sentence_size=2000000 --shuffle_input_sentence=true \
    --max_sentence_length=16384 \
    --num_threads="$(nproc)" \
    --minloglevel=1

cp "$WORK/spiece.model" "$MODEL_DIR/spiece.model"
rm -f "$WORK/input.txt"  # ~60 MB; train/out/ should stay small enough to copy to the GPU machine
cp "$WORK/spiece.vocab" "$WORK/spiece.vocab.txt"

# Round trip check: Japanese, half-width katakana, symbols and digits must decode to the same text.
printf '%s\n' 'セブン-イレブン 新宿西口店' 'ｵﾆｷﾞﾘ ｼｬｹ ¥150※' '令和6年5月1日(水) 12:34' '〒160-0023 東京都新宿区西新宿1-2-3' \
    'name: ローソン | item: 緑茶 ; 2 ; 98 ; 196 | total: 1,234' 'TOTAL RM 22.90' >"$WORK/roundtrip.txt"
spm_encode --model="$MODEL_DIR/spiece.model" <"$WORK/roundtrip.txt" | spm_decode --model="$MODEL_DIR/spiece.model" \
    >"$WORK/roundtrip.out.txt"
if cmp -s "$WORK/roundtrip.txt" "$WORK/roundtrip.out.txt"; then
    echo "round trip OK"
else
    diff "$WORK/roundtrip.txt" "$WORK/roundtrip.out.txt" || true
    echo "round trip FAILED" >&2
    exit 1
fi
echo "pieces: $(wc -l <"$WORK/spiece.vocab")"
spm_encode --model="$MODEL_DIR/spiece.model" <"$WORK/roundtrip.txt" | head -3

#!/usr/bin/env bash
# Black-box checks of the `receipt` CLI as a user runs it: outputs, --jsonl order and error records, exit codes.
# Usage: tests/cli_test.sh BUILD_DIR   (run by CTest as cli_test)
set -uo pipefail
BIN="$1/bin/receipt"
cd "$(dirname "$0")/.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0
check() {  # check NAME EXPECTED_STATUS COMMAND...
    local name=$1 want=$2
    shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" = "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $got, expected $want"
        head -c 400 "$TMP/err"
    fi
}

# generate on a golden checkpoint: ids, and text from stdin.
check generate-ids 0 "$BIN" generate --model tests/golden/t5-tiny-v11 --max-new-tokens 5 --ids "TOTAL RM 9.00"
[ "$(wc -w <"$TMP/out")" -ge 1 ] || { echo "FAIL generate-ids: no ids"; fail=$((fail + 1)); }
check generate-stdin 0 sh -c "echo 'TOTAL RM 9.00' | '$BIN' generate --model tests/golden/t5-tiny-v11 --max-new-tokens 5 -"

# extract with the bundled model: one JSON object with every schema key.
check extract-file 0 "$BIN" extract --device cpu --max-new-tokens 16 examples/receipt-en.txt
python3 - "$TMP/out" <<'PY' || fail=$((fail + 1))
import json, sys
o = json.loads(open(sys.argv[1]).read())
keys = ["supplier_name", "supplier_address", "supplier_phone", "receipt_date", "purchase_time", "currency",
        "line_items", "net_amount", "total_tax_amount", "total_amount", "warnings"]
assert list(o) == keys, list(o)
PY

# Speculative decoding (--draft-tokens): the same output; out of range is a usage error.
check extract-plain 0 "$BIN" extract --device cpu --max-new-tokens 64 examples/receipt-ja-konbini.txt
cp "$TMP/out" "$TMP/plain.json"
check extract-drafts 0 "$BIN" extract --device cpu --max-new-tokens 64 --draft-tokens 5 examples/receipt-ja-konbini.txt
cmp -s "$TMP/out" "$TMP/plain.json" || { echo "FAIL extract-drafts: output differs from plain greedy"; fail=$((fail + 1)); }
check extract-bad-drafts 2 "$BIN" extract --device cpu --draft-tokens 99 examples/receipt-en.txt

# The GPU precision defaults to fp16-a32 (the CPU's outputs); an unknown one is a usage error naming the choices.
"$BIN" extract --help | grep -q -- "--dtype TEXT=fp16-a32" || { echo "FAIL extract-default-dtype"; fail=$((fail + 1)); }
"$BIN" serve --help | grep -q -- "=fp16-a32" || { echo "FAIL serve-default-dtype"; fail=$((fail + 1)); }
check extract-bad-dtype 2 "$BIN" extract --device cpu --dtype fp17 --max-new-tokens 4 examples/receipt-en.txt
grep -q "expected fp16-a32" "$TMP/err" || { echo "FAIL extract-bad-dtype: $(head -c 200 "$TMP/err")"; fail=$((fail + 1)); }

# --jsonl keeps input order and turns bad lines into error records; the exit status says some failed.
printf '%s\n' '{"id":"a","text":"TOTAL 9.00"}' 'not json' '{"id":"c","text":"  "}' '{"id":"d","text":"合計 ¥1,080"}' >"$TMP/in.jsonl"
check extract-jsonl 2 "$BIN" extract --device cpu --max-new-tokens 8 --jsonl "$TMP/in.jsonl" --out "$TMP/res.jsonl"
python3 - "$TMP/res.jsonl" <<'PY' || fail=$((fail + 1))
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["id"] for r in rows] == ["a", 2, "c", "d"], rows
assert "fields" in rows[0] and "error" in rows[1] and "error" in rows[2] and "fields" in rows[3], rows
PY

# eval: per-field scores in the report; --exclude-ocr-mismatch leaves out a label the text does not print.
cat >"$TMP/gold.jsonl" <<'JSONL'
{"id": "a", "text": "ABC MART\nJALAN SETIA 1\nTOTAL 5.00", "fields": {"company": "ABC MART", "address": "JALAN SEITA 1", "total": "5.00"}}
JSONL
check eval-ocr-mismatch 0 "$BIN" eval --device cpu --max-new-tokens 24 --data "$TMP/gold.jsonl" --exclude-ocr-mismatch --report "$TMP/report.json"
grep -q "not scored (gold value not printed in the text): supplier_address 1;" "$TMP/out" || { echo "FAIL eval-ocr-mismatch: $(head -c 600 "$TMP/out")"; fail=$((fail + 1)); }
python3 - "$TMP/report.json" <<'PY' || fail=$((fail + 1))
import json, sys
r = json.load(open(sys.argv[1]))
assert r["exclude_ocr_mismatch"] is True, r
cpu = r["devices"]["cpu"]
assert cpu["ocr_mismatch_excluded"] == {"supplier_address": 1}, cpu
f = cpu["fields"]["supplier_address"]
assert f["tp"] + f["fp"] + f["fn"] == 0, f
PY
check eval-missing-data 2 "$BIN" eval --device cpu --data "$TMP/nope.jsonl"

# Errors: missing model (3), no CUDA build or GPU for --device cuda (4 or ok on a GPU machine), bad flags (nonzero).
check missing-model 3 "$BIN" extract --model "$TMP/nope" examples/receipt-en.txt
check missing-file 2 "$BIN" extract --device cpu "$TMP/nope.txt"
# A missing or empty file among good ones: an error object in its place, the others extracted, exit 2.
: >"$TMP/empty.txt"
check extract-bad-files 2 "$BIN" extract --device cpu --max-new-tokens 8 examples/receipt-en.txt "$TMP/nope.txt" "$TMP/empty.txt" examples/receipt-en.txt
python3 - "$TMP/out" "$TMP/err" <<'PY' || fail=$((fail + 1))
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 4, rows
assert "supplier_name" in rows[0] and "supplier_name" in rows[3], rows
assert rows[1]["error"].startswith("cannot open") and rows[1]["file"].endswith("nope.txt"), rows[1]
assert rows[2]["error"].endswith("the receipt text is empty"), rows[2]
err = open(sys.argv[2]).read()
assert "nope.txt" in err and ".cpp:" not in err, err  # said to the user, without source locations
PY
# Text in another encoding (合計 in Shift_JIS) is a clear error, not noise for the model.
printf '\x8d\x87\x8c\x76 1080\n' >"$TMP/sjis.txt"
check extract-not-utf8 2 "$BIN" extract --device cpu --max-new-tokens 8 "$TMP/sjis.txt"
grep -q "not UTF-8 text (byte 0x8d at offset 0); convert it first" "$TMP/err" || { echo "FAIL extract-not-utf8: $(head -c 300 "$TMP/err")"; fail=$((fail + 1)); }
# A text that is no receipt: the model writes another receipt's date, time and amounts; none of them is printed, so
# extract reports none of them.
printf 'hello world\n' >"$TMP/none.txt"
check extract-unprinted 0 "$BIN" extract --device cpu "$TMP/none.txt"
python3 - "$TMP/out" <<'PY' || fail=$((fail + 1))
import json, sys
o = json.loads(open(sys.argv[1]).read())
for key in ("receipt_date", "purchase_time", "net_amount", "total_tax_amount", "total_amount", "currency"):
    assert o[key] is None, (key, o[key])
PY
check bad-device 2 "$BIN" extract --device tpu examples/receipt-en.txt
check no-args 2 "$BIN" extract
"$BIN" --version >/dev/null || { echo "FAIL version"; fail=$((fail + 1)); }

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

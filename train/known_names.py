#!/usr/bin/env python3
"""Write the store names known from training, for the runtime's name check (src/extract/known_names.h).

    python3 train/known_names.py --data train/out/data/train.jsonl.gz --out models/receipt-t5-small/known_names.txt

Reads the training file of train/make_data.py (train.jsonl or train.jsonl.gz) and writes one "COUNT<TAB>NAME" line
per known store name, most frequent first, COUNT being the training receipts that name it:
  * every store name of a real receipt (SROIE, rds_silver);
  * the names of at least --min-synthetic-share of the synthetic receipts (default 0.1%): the chains the generators
    draw for training (synth_ja_data.py, synth_en.py: each names 0.5-2.8% of them), not the invented names made to
    teach copying (a short one may recur, in at most 0.01%) and not the chains held out for the test sets (never
    drawn for training).
For a Japanese name (one holding kana or kanji) the name is its chain, the part before the first space ("セブン-イレブン"
of "セブン-イレブン 新宿西口店"). Spellings with the same letters and digits ("AEON CO. (M) BHD" and "AEON CO. (M)
BHD.") are one name, spelled as most receipts spell it, with their counts added.
Plain Python 3, no dependencies.
"""

import argparse
import collections
import gzip
import json
import sys


def is_cjk(s):
    """Kana or kanji (as has_cjk in src/extract/utf8.cpp: not the prolonged sound mark or the middle dot)."""
    for ch in s:
        cp = ord(ch)
        if cp in (0x30FC, 0x30FB, 0xFF70):
            continue
        if 0x3040 <= cp <= 0x30FF or 0x4E00 <= cp <= 0x9FFF or 0xFF66 <= cp <= 0xFF9F:
            return True
    return False


def letter_or_digit(ch):
    """As letter_or_digit in src/extract/known_names.cpp."""
    cp = ord(ch)
    if cp < 0x80:
        return ch.isascii() and ch.isalnum()
    if cp <= 0xBF or cp in (0xD7, 0xF7) or 0x2000 <= cp <= 0x206F or 0x3000 <= cp <= 0x303F or cp == 0x30FB:
        return False
    if 0xFF01 <= cp <= 0xFF0F or 0xFF1A <= cp <= 0xFF20 or 0xFF3B <= cp <= 0xFF40 or 0xFF5B <= cp <= 0xFF65:
        return False
    return True


def name_letters(s):
    return "".join(ch for ch in s if letter_or_digit(ch))


def chain_of(name):
    return name.split(" ")[0] if is_cjk(name) else name


def known_names(records, min_synthetic_share):
    synthetic, real = collections.Counter(), collections.Counter()
    n_synthetic = 0
    for r in records:
        is_synthetic = str(r.get("source", "")).startswith("synth")
        n_synthetic += is_synthetic
        name = (r.get("fields") or {}).get("supplier_name")
        if not isinstance(name, str) or not name.strip():
            continue
        name = " ".join(name.split())
        (synthetic if is_synthetic else real)[chain_of(name)] += 1
    counts = collections.Counter({n: c for n, c in synthetic.items() if c >= min_synthetic_share * n_synthetic})
    counts.update(real)
    spelling, total = {}, collections.Counter()
    for n, c in counts.items():
        k = name_letters(n)
        if not k or "\t" in n:
            continue
        total[k] += c
        if k not in spelling or c > counts[spelling[k]] or (c == counts[spelling[k]] and n < spelling[k]):
            spelling[k] = n
    return sorted(((total[k], spelling[k]) for k in spelling), key=lambda x: (-x[0], x[1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="train.jsonl or train.jsonl.gz of train/make_data.py")
    ap.add_argument("--out", required=True, help="known_names.txt to write (in the model folder)")
    ap.add_argument("--min-synthetic-share", type=float, default=0.001,
                    help="least share of the synthetic training receipts naming a store for it to count")
    args = ap.parse_args()
    opener = gzip.open if args.data.endswith(".gz") else open
    with opener(args.data, "rt", encoding="utf-8") as f:
        names = known_names((json.loads(line) for line in f if line.strip()), args.min_synthetic_share)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("# Store names known from training: COUNT<TAB>NAME, COUNT the training receipts naming the store.\n")
        f.write("# Written by train/known_names.py; read by the runtime's name check (src/extract/known_names.h).\n")
        for c, n in names:
            f.write(f"{c}\t{n}\n")
    print(f"{len(names)} names -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

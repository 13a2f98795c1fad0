#!/usr/bin/env python3
"""Receipts as Japanese OCR engines often print them, to measure how extraction reads them.

    python3 train/fullwidth_receipts.py train/out/data/dev_ja.jsonl OUT.jsonl [--share 0.5] [--seed 1]
    build/bin/receipt eval --device cpu --data OUT.jsonl

Writes every receipt of a labelled JSONL ({"id","text","fields"}) again with its gold fields unchanged and its
text changed the way OCR output for Japanese receipts often differs from the training text: on a share of the
lines (--share, chosen per line with --seed) every printable ASCII character but the space is written in its
full-width form (U+FF01..U+FF5E: "合計 ￥１，２３０", "ＴＥＬ０３－..."), and spaces on those lines become the
ideographic space U+3000; every ¥ becomes the full-width ￥ (U+FFE5); and lines end in "\\r\\n". Plain Python 3.
"""
import argparse
import json
import random


def widen(line):
    out = []
    for c in line:
        if c == " ":
            out.append("\u3000")
        elif "!" <= c <= "~":
            out.append(chr(ord(c) + 0xFEE0))
        else:
            out.append(c)
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--share", type=float, default=0.5, help="share of lines written full-width")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    n = 0
    with open(args.data, encoding="utf-8") as f, open(args.out, "w", encoding="utf-8") as out:
        for line in f:
            r = json.loads(line)
            lines = [widen(x) if rng.random() < args.share else x for x in r["text"].split("\n")]
            r["text"] = "\r\n".join(lines).replace("\u00a5", "\uffe5")
            out.write(json.dumps(r, ensure_ascii=False) + "\n")
            n += 1
    print(f"{args.out}: {n} receipts")


if __name__ == "__main__":
    main()

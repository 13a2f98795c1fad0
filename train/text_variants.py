#!/usr/bin/env python3
"""Receipts written the ways OCR engines and saved files differ from the training text, to measure how extraction
reads them.

    python3 train/text_variants.py KIND train/out/data/dev_ja.jsonl OUT.jsonl [--share 0.5] [--seed 1]
    build/bin/receipt eval --device cpu --data OUT.jsonl

Writes every receipt of a labelled JSONL ({"id","text","fields"}) again, gold fields unchanged, its text changed
by KIND:
  fullwidth  on a share of the lines (--share, chosen per line with --seed) every printable ASCII character but
             the space in its full-width form (U+FF01..U+FF5E: "合計 ￥１，２３０", "ＴＥＬ０３－...") and the spaces
             as U+3000; every ¥ as ￥ (U+FFE5); lines ending in "\\r\\n" (Japanese OCR output saved on Windows);
  blank      a blank line between every two lines (OCR blocks);
  trailing   three spaces at the end of every line;
  bom        a byte order mark (U+FEFF) before the first line (a file saved by Windows Notepad);
  tabs       every space a tab (columns separated by tabs);
  spaces     every space two (columns aligned with spaces).
Plain Python 3.
"""
import argparse
import json
import random


def widen(line):
    """The line with printable ASCII in full-width forms and spaces as U+3000."""
    return "".join("\u3000" if c == " " else chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in line)


def vary(kind, text, rng, share):
    lines = text.split("\n")
    if kind == "fullwidth":
        return "\r\n".join(widen(x) if rng.random() < share else x for x in lines).replace("\u00a5", "\uffe5")
    if kind == "blank":
        return "\n\n".join(lines)
    if kind == "trailing":
        return "\n".join(x + "   " for x in lines)
    if kind == "bom":
        return "\ufeff" + text
    if kind == "tabs":
        return text.replace(" ", "\t")
    if kind == "spaces":
        return text.replace(" ", "  ")
    raise ValueError(kind)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["fullwidth", "blank", "trailing", "bom", "tabs", "spaces"])
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--share", type=float, default=0.5, help="fullwidth: share of lines written full-width")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    n = 0
    with open(args.data, encoding="utf-8") as f, open(args.out, "w", encoding="utf-8") as out:
        for line in f:
            r = json.loads(line)
            r["text"] = vary(args.kind, r["text"], rng, args.share)
            out.write(json.dumps(r, ensure_ascii=False) + "\n")
            n += 1
    print(f"{args.out}: {n} receipts ({args.kind})")


if __name__ == "__main__":
    main()

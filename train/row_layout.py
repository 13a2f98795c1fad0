#!/usr/bin/env python3
"""Receipts as an OCR engine that returns text lines gives them: one line per printed row, the boxes of a row
joined by a space ("TOTAL SALES (INCLUSIVE OF GST) : 80.90" instead of "TOTAL SALES (INCLUSIVE OF GST) :" and
"80.90" on two lines).

    python3 train/row_layout.py train/out/data/dev_ja.jsonl OUT.jsonl
    python3 train/row_layout.py train/out/data/val.jsonl OUT.jsonl --boxes <shared data>/sroie/val.jsonl
    build/bin/receipt eval --device cpu --data OUT.jsonl

Writes every receipt of a labelled JSONL ({"id","text","fields"}) again with the same gold fields. A synthetic
receipt (id synth-SPLIT-LANG-SEED-I) is drawn again from its own random stream with its rows joined
(`synth.make_receipt(..., joined=True)`: the same boxes and OCR noise). A SROIE receipt gets its rows rebuilt from
the boxes of the shared data (`--boxes`, the file with the `boxes` key): consecutive boxes whose vertical centres
lie within half the median box height of the row's first box form a row. Other receipts are copied unchanged and
counted. Plain Python 3.
"""
import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth  # noqa: E402

SYNTH_ID = re.compile(r"^synth-(train|test)-(ja|en)-(\d+)-(\d+)$")


def rows_from_boxes(boxes):
    """boxes: [[xmin, ymin, xmax, ymax, text], ...] in reading order -> one text line per visual row."""
    boxes = [b for b in boxes if str(b[4]).strip()]
    if not boxes:
        return []
    half = statistics.median(b[3] - b[1] for b in boxes) / 2
    rows, centre = [], None
    for b in boxes:
        cy = (b[1] + b[3]) / 2
        if centre is None or abs(cy - centre) > half:
            rows.append([])
            centre = cy
        rows[-1].append(str(b[4]).strip())
    return [" ".join(r) for r in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--boxes", help="SROIE JSONL with the boxes key (ids without the sroie_ prefix)")
    args = ap.parse_args()
    boxes = {}
    if args.boxes:
        with open(args.boxes, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                boxes[r["id"]] = r.get("boxes")
    joined = copied = 0
    with open(args.data, encoding="utf-8") as f, open(args.out, "w", encoding="utf-8") as out:
        for line in f:
            r = json.loads(line)
            m = SYNTH_ID.match(r["id"])
            sid = r["id"][len("sroie_"):] if r["id"].startswith("sroie_") else r["id"]
            if m:
                split, lang, seed, i = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
                again = synth.make_receipt(split, lang, seed, i, joined=True)
                if again["fields"] != synth.make_receipt(split, lang, seed, i)["fields"]:
                    raise SystemExit(f"{r['id']}: drawn again with other fields")
                r["text"] = again["text"]
                joined += 1
            elif boxes.get(sid):
                r["text"] = "\n".join(rows_from_boxes(boxes[sid]))
                joined += 1
            else:
                copied += 1
            out.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{args.out}: {joined} receipts in rows, {copied} copied unchanged", file=sys.stderr)


if __name__ == "__main__":
    main()

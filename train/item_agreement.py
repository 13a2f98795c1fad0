#!/usr/bin/env python3
"""How believable the line items of `receipt extract --jsonl` outputs are on receipts without item labels.

SROIE labels no line items, so two checks stand in for them:
  - consistency, for any set: the items' amounts add up to the output's net or total amount (within a cent), and
    every item description is printed in the receipt text (spaces and case aside);
  - agreement with rds_silver's item labels (written by a vision LLM, so silver), for receipts whose id it has
    (SROIE training receipts): the multiset of item amounts is the silver one, and so are the (amount, quantity)
    pairs.

Usage:
    receipt extract --jsonl ../shared/data/sroie/train.jsonl --out out.jsonl
    python3 train/item_agreement.py --data ../shared/data/sroie/train.jsonl \\
        [--silver ../shared/data/rds_silver/train.jsonl] out.jsonl [other-out.jsonl ...]
"""
import argparse
import json
import re
from collections import Counter


def norm(s):
    return re.sub(r"\s+", "", s.upper())


def load_silver(path):
    silver = {}
    if not path:
        return silver
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            items = d.get("fields", {}).get("items") or []
            rid = d["id"].split("_", 1)[1] if d.get("source") == "sroie" else d["id"]
            silver[rid] = items
            silver[d["id"]] = items
    return silver


def to_float(v, default=0.0):
    try:
        return float(v)
    except (TypeError, ValueError):
        return default


def score(out_path, texts, silver):
    n = empty = adds = printed = both = 0
    sil_n = sil_amounts = sil_pairs = 0
    sil_items = sil_items_amounts = 0  # the same among outputs with items
    with open(out_path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            fields = d.get("fields") or {}
            items = fields.get("line_items") or []
            n += 1
            if d["id"] in silver:
                sil_n += 1
                want = Counter(round(to_float(i.get("total_price")), 2) for i in silver[d["id"]])
                have = Counter(round(to_float(i.get("amount")), 2) for i in items)
                want_pairs = Counter((round(to_float(i.get("total_price")), 2), to_float(i.get("quantity"), 1.0))
                                     for i in silver[d["id"]])
                have_pairs = Counter((round(to_float(i.get("amount")), 2), to_float(i.get("quantity"), 1.0))
                                     for i in items)
                sil_amounts += want == have
                sil_pairs += want_pairs == have_pairs
                if items:
                    sil_items += 1
                    sil_items_amounts += want == have
            if not items:
                empty += 1
                continue
            total = sum(to_float(i.get("amount")) for i in items)
            add = any(isinstance(fields.get(k), (int, float)) and abs(total - fields[k]) < 0.015
                      for k in ("net_amount", "total_amount"))
            text = texts.get(d["id"], "")
            pr = all(isinstance(i.get("description"), str) and i["description"] and norm(i["description"]) in text
                     for i in items)
            adds += add
            printed += pr
            both += add and pr
    print(f"{out_path}: {n} receipts, {empty} without items; items add up {adds}, every description printed "
          f"{printed}, both {both}")
    if sil_n:
        print(f"  with silver items: {sil_n}; item amounts as the silver labels {sil_amounts}, "
              f"amounts and quantities {sil_pairs}; of the {sil_items} outputs with items, amounts as the silver "
              f"labels {sil_items_amounts}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="the JSONL the outputs were extracted from ({id, text})")
    ap.add_argument("--silver", help="rds_silver train.jsonl, for agreement with its item labels")
    ap.add_argument("outputs", nargs="+", help="receipt extract --jsonl outputs ({id, fields})")
    args = ap.parse_args()
    texts = {}
    with open(args.data, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            texts[d["id"]] = norm(d["text"])
    silver = load_silver(args.silver)
    for path in args.outputs:
        score(path, texts, silver)


if __name__ == "__main__":
    main()

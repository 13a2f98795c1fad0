#!/usr/bin/env python3
"""Inputs longer than 512 tokens for the CPU-vs-CUDA parity check (the >512 bucket of `receipt eval`).

    python3 bench/parity/make_long.py train/out/data/val.jsonl train/out/data/synth_test_ja.jsonl \
        > train/out/data/long.jsonl
    build/bin/receipt eval --data train/out/data/long.jsonl --device auto --dtype fp16-a32 \
        --max-input-tokens 1024 --max-new-tokens 512

No real receipt in the data sets is that long, so this joins whole receipts: the first file's receipts in pairs and
the second's in threes, in file order (SROIE val: 40 pairs of 600-900 tokens; synthetic Japanese, first 180
receipts: 60 triples). Each joined receipt carries the fields of its first part, so its field scores mean little:
the check is whether the GPU gives the CPU's output. Plain Python 3, no dependencies.
"""
import json
import sys


def joined(rows, k):
    for i in range(0, len(rows) - k + 1, k):
        part = rows[i:i + k]
        yield {"id": "long-" + "+".join(r["id"] for r in part),
               "text": "\n".join(r["text"] for r in part),
               "fields": part[0]["fields"]}


def main(pairs_path, triples_path, n_triples=60):
    pairs = [json.loads(line) for line in open(pairs_path, encoding="utf-8")]
    triples = [json.loads(line) for line in open(triples_path, encoding="utf-8")][:3 * n_triples]
    for rec in list(joined(pairs, 2)) + list(joined(triples, 3)):
        print(json.dumps(rec, ensure_ascii=False))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

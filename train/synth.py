#!/usr/bin/env python3
"""Synthetic receipt generator (Japanese first, English too). Plain Python 3, no dependencies.

    python3 train/synth.py --lang ja --n 100 --seed 1 [--split train|test] > out.jsonl

Each line is {"id", "text", "fields", "meta"}; text is one OCR box per line, rows top to bottom, like the shared data.

Determinism and hold-out: receipt i of (split, lang, seed) is drawn from random.Random(f"{split}/{lang}/{seed}/{i}"),
so the train and test splits never share a random stream. The test split additionally uses layouts and chains that
the train split never produces: Japanese layout 4 (軽 reduced-rate mark, "(2点 単価¥98)" quantity lines, the
税率/対象額/税額 tax table) and the chains marked held-out in synth_ja_data.py; English layout 3 ("2x ITEM" lines)
and the held-out chains in synth_en.py. About half of the test receipts use a held-out layout and, independently,
about half a held-out chain.
"""

import argparse
import json
import random
import sys

import synth_en
import synth_ja
from synth_noise import apply_noise


def make_receipt(split, lang, seed, i, noise=None, mixed_share=0.0, joined=False, n_items=None):
    """Receipt i of (split, lang, seed). mixed_share: share of Japanese training receipts in the mixed layout 5.
    joined: one text line per printed row (its boxes joined by a space) instead of one per box; same fields.
    n_items: (lo, hi) products per receipt instead of the usual 1-25 (ja) or 1-20 (en): long receipts."""
    rng = random.Random(f"{split}/{lang}/{seed}/{i}")
    if lang == "ja":
        rows, fields, meta = synth_ja.generate(rng, held_out=(split == "test"), mixed_share=mixed_share,
                                               n_items=n_items)
    else:
        rows, fields, meta = synth_en.generate(rng, held_out=(split == "test"), n_items=n_items)
    level = noise if noise is not None else rng.choice([0, 1, 1, 2])
    lines = apply_noise(rng, rows, level, joined)
    meta = dict(meta, noise=level, lang=lang, joined=joined)
    return {"id": f"synth-{split}-{lang}-{seed}-{i:06d}", "text": "\n".join(lines), "fields": fields, "meta": meta}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lang", choices=["ja", "en"], default="ja")
    ap.add_argument("--split", choices=["train", "test"], default="train")
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--noise", type=int, choices=[0, 1, 2], default=None, help="fixed noise level (default: random)")
    ap.add_argument("--mixed-share", type=float, default=0.0, help="share of ja training receipts in mixed layout 5")
    ap.add_argument("--items", default=None, help="LO-HI products per receipt (default: 1-25 ja, 1-20 en, mostly few)")
    args = ap.parse_args()
    n_items = tuple(int(x) for x in args.items.split("-")) if args.items else None
    if n_items and (len(n_items) != 2 or not 1 <= n_items[0] <= n_items[1]):
        ap.error("--items takes LO-HI with 1 <= LO <= HI")
    for i in range(args.n):
        r = make_receipt(args.split, args.lang, args.seed, i, args.noise, args.mixed_share, n_items=n_items)
        sys.stdout.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

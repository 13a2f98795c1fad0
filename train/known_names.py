#!/usr/bin/env python3
"""Write the store names and item descriptions known from training, for the runtime (src/extract/known_names.h).

    python3 train/known_names.py --data train/out/data/train.jsonl.gz --out-dir models/receipt-t5-small

Reads the training file of train/make_data.py (train.jsonl or train.jsonl.gz) and writes known_names.txt,
known_items.txt, known_addresses.txt and known_address_words.txt there: one "COUNT<TAB>TEXT" line per known store
name, address or address word (COUNT: the training receipts that have it) or item description (COUNT: the training
item rows that have it), most frequent first. Store names (and addresses, by the same rules, whole):
  * every store name of a real receipt (SROIE, rds_silver);
  * the names of at least --min-synthetic-share of the synthetic receipts (default 0.1%): the chains the generators
    draw for training (synth_ja_data.py, synth_en.py: each names 0.5-2.8% of them), not the invented names made to
    teach copying (a short one may recur, in at most 0.01%) and not the chains held out for the test sets (never
    drawn for training).
For a Japanese name (one holding kana or kanji) the name is its chain, the part before the first space ("セブン-イレブン"
of "セブン-イレブン 新宿西口店"). Item descriptions: every one of a real receipt, and those of at least
--min-synthetic-item-share of the synthetic item rows (default 0.001%; the generators draw from fixed lists, each
description in over 0.01% of the rows). Address words: the runs of 3 or more ASCII letters of Latin-script
addresses ("Market", "PETALING"), by the rules of names (the generators' invented streets are in far fewer than 0.1%
of the receipts). In every list, spellings with the same letters and digits ("AEON CO. (M) BHD"
and "AEON CO. (M) BHD.") are one, spelled as most rows spell it, with their counts added.
Plain Python 3, no dependencies.
"""

import argparse
import collections
import gzip
import json
import os
import re
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


class Tally:
    """Counts of texts on synthetic and on real receipts, and how many synthetic units (receipts or rows) there were."""

    def __init__(self):
        self.synthetic, self.real, self.n_synthetic = collections.Counter(), collections.Counter(), 0

    def add(self, text, is_synthetic):
        if isinstance(text, str) and text.strip():
            (self.synthetic if is_synthetic else self.real)[" ".join(text.split())] += 1

    def known(self, min_synthetic_share):
        """[(count, text)] most frequent first: the real texts and the synthetic ones of at least that share."""
        counts = collections.Counter({n: c for n, c in self.synthetic.items()
                                      if c >= min_synthetic_share * self.n_synthetic})
        counts.update(self.real)
        return merged_spellings(counts)


def address_words(address):
    """The words of a Latin-script address: its runs of 3 or more ASCII letters, each once ("Market", "JALAN")."""
    if not isinstance(address, str) or is_cjk(address):
        return set()
    return {w for w in re.findall(r"[A-Za-z]+", address) if len(w) >= 3}


def tally(records):
    """(store names, item descriptions, store addresses, address words) of the training records."""
    names, items, addresses, words = Tally(), Tally(), Tally(), Tally()
    for r in records:
        is_synthetic = str(r.get("source", "")).startswith("synth")
        fields = r.get("fields") or {}
        names.n_synthetic += is_synthetic
        addresses.n_synthetic += is_synthetic
        name = fields.get("supplier_name")
        names.add(chain_of(" ".join(name.split())) if isinstance(name, str) else None, is_synthetic)
        addresses.add(fields.get("supplier_address"), is_synthetic)
        words.n_synthetic += is_synthetic
        for w in address_words(fields.get("supplier_address")):
            words.add(w, is_synthetic)
        for it in fields.get("line_items") or []:
            if isinstance(it, dict):
                items.n_synthetic += is_synthetic
                items.add(it.get("description"), is_synthetic)
    return names, items, addresses, words


def merged_spellings(counts):
    spelling, total = {}, collections.Counter()
    for n, c in counts.items():
        k = name_letters(n)
        if not k or "\t" in n:
            continue
        total[k] += c
        if k not in spelling or c > counts[spelling[k]] or (c == counts[spelling[k]] and n < spelling[k]):
            spelling[k] = n
    return sorted(((total[k], spelling[k]) for k in spelling), key=lambda x: (-x[0], x[1]))


def write_list(path, header, entries):
    with open(path, "w", encoding="utf-8") as f:
        f.write(header)
        f.write("# Written by train/known_names.py; read by the runtime (src/extract/known_names.h).\n")
        for c, n in entries:
            f.write(f"{c}\t{n}\n")
    print(f"{len(entries)} -> {path}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="train.jsonl or train.jsonl.gz of train/make_data.py")
    ap.add_argument("--out-dir", required=True, help="model folder to write the three lists to")
    ap.add_argument("--min-synthetic-share", type=float, default=0.001,
                    help="least share of the synthetic training receipts with a store name or address for it to count")
    ap.add_argument("--min-synthetic-item-share", type=float, default=0.00001,
                    help="least share of the synthetic training item rows with a description for it to count")
    args = ap.parse_args()
    opener = gzip.open if args.data.endswith(".gz") else open
    with opener(args.data, "rt", encoding="utf-8") as f:
        names, items, addresses, words = tally(json.loads(line) for line in f if line.strip())
    write_list(os.path.join(args.out_dir, "known_names.txt"),
               "# Store names known from training: COUNT<TAB>NAME, COUNT the training receipts naming the store.\n",
               names.known(args.min_synthetic_share))
    write_list(os.path.join(args.out_dir, "known_items.txt"),
               "# Item descriptions known from training: COUNT<TAB>DESCRIPTION, COUNT the training item rows.\n",
               items.known(args.min_synthetic_item_share))
    write_list(os.path.join(args.out_dir, "known_addresses.txt"),
               "# Store addresses known from training: COUNT<TAB>ADDRESS, COUNT the training receipts.\n",
               addresses.known(args.min_synthetic_share))
    write_list(os.path.join(args.out_dir, "known_address_words.txt"),
               "# Words of Latin-script store addresses known from training: COUNT<TAB>WORD, COUNT the training "
               "receipts.\n", words.known(args.min_synthetic_share))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Receipts with a field taken out of the text, to measure what the extraction makes up.

    python3 train/cut_receipts.py make train/out/data/dev_en.jsonl OUT_DIR
    build/bin/receipt extract --device cpu --jsonl OUT_DIR/dev_en-nodate.jsonl --out pred.jsonl
    python3 train/cut_receipts.py score OUT_DIR/dev_en-nodate.jsonl pred.jsonl

`make` writes four sets from a labelled JSONL ({"id","text","fields"}), each with only the receipts it changed:
  <name>-nodate.jsonl   every line that prints a date or a time is taken out (an OCR result that lost the date
                        line); receipt_date and purchase_time become null;
  <name>-nophone.jsonl  every line that holds the phone number's digits is taken out; supplier_phone becomes null;
  <name>-cut.jsonl      the text ends before its first total, subtotal or tax line (a photo that cut off the
                        receipt's bottom); net_amount, total_tax_amount and total_amount become null, and so do the
                        date and time when their lines were below the cut;
  <name>-nohead.jsonl   the text starts at its first date line (a photo that cut off the header); supplier_name,
                        supplier_address and supplier_phone become null.
A line counts as a date or time line when a pattern below finds one, look-alike letters next to digits read as
digits (O/D 0, l/I 1, Z 2, S 5, b 6, B 8, g 9), and house numbers ("経堂3-19-20") aside; damaged lines it does not recognise stay (a reader may still
recover the value from them, so what it writes there is not counted as made up).

`score` counts, per field, the receipts whose gold value is null and whose prediction is not: values the text does
not print, made up. It also prints how many predictions equal the gold value where it is not null.
"""
import json
import os
import re
import sys

LOOKALIKE = str.maketrans({"O": "0", "D": "0", "o": "0", "l": "1", "I": "1", "|": "1", "Z": "2", "S": "5",
                           "b": "6", "B": "8", "g": "9"})
MONTHS = r"(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*"
DATE = re.compile(r"\d{1,4}\s?[/.\-]\s?\d{1,2}\s?[/.\-]\s?\d{1,4}|\d{1,4}\s?年\s?\d{1,2}\s?月|\d{1,2}\s?月\s?\d{1,2}\s?日"
                  r"|\d{1,2}\s?" + MONTHS + r"\s?,?\s?\d{2,4}|" + MONTHS + r"\s?\d{1,2},?\s?\d{2,4}", re.I)
TIME = re.compile(r"\d{1,2}\s?[:;]\s?\d{2}|\d{1,2}\s?時\s?\d{1,2}\s?分|\d{3,4}\s?[AP]M", re.I)
# A total, subtotal or tax line; not a heading ("AMOUNT" above the items) nor an id ("TAX INVOICE", "GST ID NO",
# "VAT No.", "適格請求書発行事業者").
CUT = re.compile(r"TOTAL|TOTA|TOTL|OTAL|AMOUNT\s*DUE|BALANCE|\b(TAX|VAT|GST|SST)\b(?!\s*(INVOICE|ID|REG|NO|NUMBER))"
                 r"|小\s*計|合\s*計|会\s*計|お買上|総\s*計|消費税|外税|内税|税率|対象", re.I)
FIELDS = ["supplier_name", "supplier_address", "supplier_phone", "receipt_date", "purchase_time", "currency",
          "net_amount", "total_tax_amount", "total_amount"]


def read_digits(line):
    """The line with look-alike letters next to a digit read as digits (one pass each way)."""
    chars = list(line)
    for i, c in enumerate(chars):
        near = (i > 0 and chars[i - 1].isdigit()) or (i + 1 < len(chars) and chars[i + 1].isdigit())
        if near and c in "ODolI|ZSbBg":
            chars[i] = c.translate(LOOKALIKE)
    return "".join(chars)


ADDRESS = re.compile(r"[都道府県市区町村〒]|丁目|番地")


def is_date_line(line):
    """Whether a line prints a date: a DATE match that is no house number (on a Japanese address line, or right
    after a letter of another script: "経堂3-19-20")."""
    line = read_digits(line)
    for m in DATE.finditer(line):
        numeric = re.match(r"[\d\s/.\-]+$", m.group(0)) is not None
        if numeric and ADDRESS.search(line):
            continue
        p = m.start()
        while p > 0 and (line[p - 1].isdigit() or line[p - 1] in "/.-"):
            p -= 1
        if numeric and p > 0 and ord(line[p - 1]) > 127:
            continue
        return True
    return False


def digits(s):
    return re.sub(r"\D", "", s or "")


def make(path, out_dir):
    name = os.path.splitext(os.path.basename(path))[0]
    records = [json.loads(line) for line in open(path, encoding="utf-8")]
    outs = {kind: [] for kind in ("nodate", "nophone", "cut", "nohead")}
    for r in records:
        lines = r["text"].split("\n")
        f = r["fields"]
        # Dates and times.
        kept = [x for x in lines if not (is_date_line(x) or TIME.search(read_digits(x)))]
        if len(kept) < len(lines):
            outs["nodate"].append(dict(r, id=r["id"] + "-nodate", text="\n".join(kept),
                                       fields=dict(f, receipt_date=None, purchase_time=None)))
        # The phone number.
        phone = digits(f.get("supplier_phone"))
        if len(phone) >= 6:
            kept = [x for x in lines if phone not in digits(read_digits(x))]
            if len(kept) < len(lines):
                outs["nophone"].append(dict(r, id=r["id"] + "-nophone", text="\n".join(kept),
                                            fields=dict(f, supplier_phone=None)))
        # The bottom, from the first total / tax line.
        at = next((i for i, x in enumerate(lines) if CUT.search(x)), None)
        if at is not None and at > 0:
            kept, gone = lines[:at], lines[at:]
            g = dict(f, net_amount=None, total_tax_amount=None, total_amount=None)
            if any(is_date_line(x) for x in gone) and not any(is_date_line(x) for x in kept):
                g["receipt_date"] = None
            if any(TIME.search(read_digits(x)) for x in gone) and not any(TIME.search(read_digits(x)) for x in kept):
                g["purchase_time"] = None
            outs["cut"].append(dict(r, id=r["id"] + "-cut", text="\n".join(kept), fields=g))
        # The header, up to the first date line.
        at = next((i for i, x in enumerate(lines) if is_date_line(x)), None)
        if at:
            g = dict(f, supplier_name=None, supplier_address=None, supplier_phone=None)
            outs["nohead"].append(dict(r, id=r["id"] + "-nohead", text="\n".join(lines[at:]), fields=g))
    os.makedirs(out_dir, exist_ok=True)
    for kind, rs in outs.items():
        target = os.path.join(out_dir, f"{name}-{kind}.jsonl")
        with open(target, "w", encoding="utf-8") as w:
            for r in rs:
                w.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(f"{target}: {len(rs)} receipts")


def same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 0.005
    return " ".join(str(a).split()) == " ".join(str(b).split())


def score(gold_path, pred_path):
    gold = {}
    for line in open(gold_path, encoding="utf-8"):
        r = json.loads(line)
        gold[r["id"]] = r["fields"]
    pred = {}
    for line in open(pred_path, encoding="utf-8"):
        r = json.loads(line)
        pred[r["id"]] = r.get("fields") or {}
    print(f"{gold_path}: {len(gold)} receipts")
    print(f"{'field':18} {'gold null':>9} {'made up':>8} {'gold set':>8} {'right':>6}")
    for key in FIELDS:
        null = made_up = present = right = 0
        for rid, g in gold.items():
            p = pred.get(rid, {}).get(key)
            if g.get(key) is None:
                null += 1
                made_up += p is not None
            else:
                present += 1
                right += p is not None and same(p, g[key])
        print(f"{key:18} {null:9d} {made_up:8d} {present:8d} {right:6d}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "score":
        score(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)

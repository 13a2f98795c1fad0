#!/usr/bin/env python3
"""Upper bounds that the OCR text itself puts on field accuracy: a reader that cannot invent digits.

    python3 train/ceiling.py train/out/data/synth_test_ja.jsonl [more.jsonl ...]

For each labelled receipt and field, the gold value counts as recoverable when every digit it needs is printed:
  supplier_address   every run of digits in the gold address is a run of digits in the text;
  supplier_phone     the digits of the gold number after its area code are printed together: consecutive in the
                     digits of one line, or of a line and the next (OCR splits lines), once OCR's look-alike
                     letters are read as the digits they stand for (O/D as 0, l/I as 1, Z 2, S 5, b 6, B 8, g 9;
                     train/synth_noise.py) and separators dropped; the area code may come from the address
                     (generous, so the bound stays an upper bound);
  net / total        the amount's digits (whole, or with two decimals) are a run in the text once separators
                     inside numbers are removed (the total tax is left out: it may be a sum of printed taxes);
  supplier_name      each space-separated part of the gold name is a piece of the text, whitespace aside (a
                     reader that copies the name can reach it; a character OCR dropped cannot be copied back);
  receipt_date       the month and day are digit runs of the text (with or without a leading zero), and so is
                     the year as four digits, two digits, or a Japanese era year (令和 = year - 2018, 平成 = year - 1988);
  line_items         per item: its amount's digits, as above; and a second row where its description is also a
                     piece of the text, whitespace aside (receipt eval's item F1 needs both).
Two more rows bound a reader that copies the address as printed (SROIE's labels were written from the images,
not from this OCR text): the gold address, whitespace aside, is a piece of the text, whitespace aside; and it is
whole consecutive lines of the text joined by one space, exactly (what an exact-match F1 can reach by copying).
Both only for receipts in Latin script.
The name, date and item-text rows bound a reader that copies what is printed: a model that learned a chain's or
an item's spelling in training, or infers a date, can beat them (ours does), so they show how much of a target
the text alone leaves, not a hard limit. Address, phone and amount digits cannot be inferred that way (but for a
phone's area code, which the address gives).
A field whose gold value is absent counts as recoverable. OCR noise that drops or changes a digit (synth_noise.py)
makes a value unrecoverable: no extraction can get it right. With P values present and R of them recoverable,
field F1 (receipt eval) is at most 2R / (2R + P - R): every recoverable value right, nothing written for the rest.
Plain Python 3, no dependencies.
"""
import json
import re
import sys
import unicodedata

AMOUNT_FIELDS = ("net_amount", "total_amount")
# OCR's look-alike letters for digits (train/synth_noise.py's CONFUSIONS, read back).
LOOKALIKE_DIGITS = str.maketrans({"O": "0", "D": "0", "o": "0", "l": "1", "I": "1", "Z": "2", "S": "5", "b": "6",
                                  "B": "8", "g": "9"})
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def nfkc(s):
    return unicodedata.normalize("NFKC", s or "")


def digit_runs(text):
    return set(re.findall(r"\d+", text))


def amount_digits(v):
    """Digit strings an amount may be printed as: 1234.5 -> {'123450'}, 1234.0 -> {'1234', '123400'}."""
    v = abs(float(v))
    cents = f"{v:.2f}".replace(".", "")
    return {str(int(v)), cents} if v == int(v) else {cents}


def amount_runs(text):
    """Digit runs of the text with thousands separators and decimal points inside numbers removed."""
    t = re.sub(r"(?<=\d)[,.](?=\d)", "", text)
    return set(re.findall(r"\d+", t))


def no_space(s):
    return re.sub(r"\s", "", s)


def address_in_text(gold, text):
    return no_space(gold) in no_space(text)


def address_as_lines(gold, text):
    """The gold address is whole consecutive text lines, stripped and joined by one space."""
    lines = [" ".join(line.split()) for line in text.split("\n")]
    for i in range(len(lines)):
        for j in range(i, len(lines)):
            joined = " ".join(lines[i : j + 1])
            if joined == gold:
                return True
            if len(joined) >= len(gold):
                break
    return False


def date_printed(gold, text):
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", gold)
    if not m:
        return False
    year, month, day = (int(g) for g in m.groups())
    runs = digit_runs(text)
    years = {str(year), f"{year % 100:02d}", str(year - 2018), str(year - 1988)}
    return bool(years & runs) and ({str(month), f"{month:02d}"} & runs) and ({str(day), f"{day:02d}"} & runs)


def recoverable(field, gold, text):
    if gold is None or gold == "" or gold == []:
        return None  # absent: not counted
    if field == "supplier_name":
        flat = no_space(text)
        return all(no_space(part) in flat for part in nfkc(gold).split())
    if field == "receipt_date":
        return date_printed(gold, text)
    if field == "supplier_address":
        runs = digit_runs(text)
        return all(r in runs for r in re.findall(r"\d+", nfkc(gold)))
    if field == "supplier_phone":
        # The area code (up to the first '-' or ')') may come from the address instead of the print.
        subscriber = re.sub(r"\D", "", re.split(r"[-)]", nfkc(gold), maxsplit=1)[-1])
        lines = [re.sub(r"\D", "", nfkc(line).translate(LOOKALIKE_DIGITS)) for line in text.split("\n")]
        return any(subscriber in "".join(lines[i : i + 2]) for i in range(len(lines)))
    if field in AMOUNT_FIELDS:
        return bool(amount_digits(gold) & amount_runs(text))
    raise ValueError(field)


def main(paths):
    for path in paths:
        rows = [json.loads(line) for line in open(path, encoding="utf-8")]
        print(f"{path}: {len(rows)} receipts")
        for field in ("supplier_name", "supplier_address", "supplier_phone", "receipt_date") + AMOUNT_FIELDS:
            n = ok = 0
            for r in rows:
                got = recoverable(field, r["fields"].get(field), nfkc(r["text"]))
                if got is None:
                    continue
                n += 1
                ok += bool(got)
            share = ok / n if n else 1.0
            f1 = 2 * ok / (2 * ok + n - ok) if n else 1.0
            print(f"  {field:18s} printed {ok:4d} of {n:4d} present ({share:.3f}): F1 at most {f1:.3f}")
        for what, test in (("as printed (spaces aside)", address_in_text), ("as printed lines (exact)", address_as_lines)):
            n = ok = 0
            for r in rows:
                gold = r["fields"].get("supplier_address")
                if gold and not CJK.search(r["text"]):  # Japanese gold addresses drop the 〒 code: not copies
                    n += 1
                    ok += test(nfkc(gold), nfkc(r["text"]))
            if n:
                f1 = 2 * ok / (2 * ok + n - ok)
                print(f"  address {what:26s} {ok:4d} of {n:4d} ({ok / n:.3f}): F1 at most {f1:.3f}")
        n = ok = both = 0
        for r in rows:
            text = nfkc(r["text"])
            runs, flat = amount_runs(text), no_space(text)
            for item in r["fields"].get("line_items") or []:
                if item.get("amount") is None:
                    continue
                n += 1
                amount_ok = bool(amount_digits(item["amount"]) & runs)
                ok += amount_ok
                both += amount_ok and no_space(nfkc(item.get("description"))) in flat
        if n:
            for what, k in (("line item amounts", ok), ("items (amount+text)", both)):
                f1 = 2 * k / (2 * k + n - k)
                print(f"  {what:18s} printed {k:4d} of {n:4d} ({k / n:.3f}): item F1 at most {f1:.3f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

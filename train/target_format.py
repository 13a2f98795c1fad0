#!/usr/bin/env python3
"""Receipt target text <-> fields (docs/target-format.md). Pure Python, no dependencies.

The model is trained to emit the *target text* of a receipt:

    name: <v> | addr: <v> | tel: <v> | date: <YYYY-MM-DD> | time: <HH:MM> | cur: <ISO> |
    item: <desc> ; <qty> ; <unit_price> ; <amount> | item: ... | net: <n> | tax: <n> | total: <n>

`fields_to_target` is byte-for-byte identical to the C++ `receipt::extract::fields_to_target`
(src/extract/target_format.cpp); training targets must be made with it. `target_to_fields` follows the
same structural rules as the C++ parser (src/extract/target_parser.cpp) and gives the same fields for
canonical values; it does not implement the C++ normalisers for raw values (Japanese era dates, "¥1,080",
currency symbols), which it reports as invalid instead. Warning texts are informative and may differ
from the C++ ones. Shared examples live in tests/extract_target_examples.json.

    python3 train/target_format.py --selftest
"""

import json
import math
import os
import re
import sys
from decimal import Decimal

# (target key, schema field), in the fixed order of the target text.
KEYS = [
    ("name", "supplier_name"),
    ("addr", "supplier_address"),
    ("tel", "supplier_phone"),
    ("date", "receipt_date"),
    ("time", "purchase_time"),
    ("cur", "currency"),
    ("item", "line_items"),
    ("net", "net_amount"),
    ("tax", "total_tax_amount"),
    ("total", "total_amount"),
]
KEY_ORDER = {k: i for i, (k, _) in enumerate(KEYS)}
KEY_FIELD = dict(KEYS)
ITEM_FIELDS = ["description", "quantity", "unit_price", "amount"]
AMOUNT_KEYS = {"net", "tax", "total"}

MAX_TARGET_CHARS = 64 * 1024  # the C++ limits are in UTF-8 bytes; Python counts characters
MAX_VALUE_CHARS = 1024
MAX_LINE_ITEMS = 500
MAX_WARNINGS = 50
MAX_ABS_AMOUNT = 1e12
MAX_ABS_QUANTITY = 1e6

ISO_CODES = set(
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF "
    "CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD "
    "HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD "
    "MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN "
    "PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY "
    "TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL".split()
)
# Currencies printed without minor units: integral amounts are written "1080", not "1080.00".
NO_MINOR_UNITS = set("BIF CLP DJF GNF IDR ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split())

_WS = re.compile("[ \t\n\r\f\v\u3000]+")
_SURROGATE = re.compile("[\ud800-\udfff]")


# ---- writing -------------------------------------------------------------------------------------


def collapse_whitespace(s):
    """Trims and collapses runs of ASCII whitespace / U+3000 to one space."""
    return _WS.sub(" ", s).strip(" \t\n\r\f\v\u3000")


def clean_value(s):
    """A string made safe for the target text: '|' ';' '｜' '；' -> '/', control characters -> ' ', whitespace
    collapsed, trimmed."""
    s = _SURROGATE.sub("\ufffd", str(s))
    out = []
    for ch in s:
        if ch in "|;\uff5c\uff1b":
            out.append("/")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(" ")
        else:
            out.append(ch)
    return collapse_whitespace("".join(out))


def shortest_decimal(x):
    """Shortest round-tripping decimal of float(x) in fixed notation ("1080", "12.5", "0.0001"); "" if not finite."""
    x = float(x)
    if not math.isfinite(x):
        return ""
    if x == 0:
        return "0"
    s = format(Decimal(repr(x)), "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def format_amount(x, minor_units):
    """Amount: shortest decimal; a fraction is padded to 2 digits; integral gets ".00" only with minor units."""
    s = shortest_decimal(x)
    if not s:
        return s
    if "." not in s:
        return s + ".00" if minor_units else s
    if len(s) - s.index(".") - 1 < 2:
        s += "0"
    return s


def format_quantity(x):
    return shortest_decimal(x)


def _is_number(v):
    return isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)


def _value_text(v, fmt):
    if isinstance(v, str):
        return clean_value(v)
    if _is_number(v):
        return fmt(v)
    return ""


def fields_to_target(fields, tax_parts=None):
    """Schema dict -> target text. Absent, None and empty values are omitted; unknown keys are ignored.
    tax_parts: the per-rate tax amounts printed on a receipt that prints no total tax (e.g. 外税8% 424 and
    外税10% 13); when given (two or more, summing to total_tax_amount), tax is written as their sum "424 + 13", so
    the model copies printed numbers instead of adding them."""
    if not isinstance(fields, dict):
        return ""
    currency = _value_text(fields.get("currency"), shortest_decimal)
    minor = currency != "" and currency not in NO_MINOR_UNITS

    def amount(x):
        return format_amount(x, minor)

    segments = []
    for key, field in KEYS:
        v = fields.get(field)
        if v is None:
            continue
        if key == "item":
            if not isinstance(v, list):
                continue
            for item in v:
                if not isinstance(item, dict):
                    continue
                parts = [
                    _value_text(item.get("description"), shortest_decimal),
                    _value_text(item.get("quantity"), format_quantity),
                    _value_text(item.get("unit_price"), amount),
                    _value_text(item.get("amount"), amount),
                ]
                if not any(parts):
                    continue
                segments.append("item: " + collapse_whitespace(" ; ".join(parts)))
            continue
        text = _value_text(v, amount if key in AMOUNT_KEYS else shortest_decimal)
        if key == "tax" and tax_parts and len(tax_parts) > 1 and all(_is_number(t) for t in tax_parts) \
                and _is_number(v) and abs(sum(tax_parts) - v) < 0.005:
            text = " + ".join(amount(t) for t in tax_parts)
        if text:
            segments.append(key + ": " + text)
    return " | ".join(segments)


# ---- parsing -------------------------------------------------------------------------------------


class _Warnings:
    def __init__(self):
        self.items = []
        self.n_dropped = 0

    def add(self, code, detail):
        if len(self.items) < MAX_WARNINGS:
            self.items.append("%s: %s" % (code, detail))
        else:
            self.n_dropped += 1

    def to_list(self):
        out = list(self.items)
        if self.n_dropped:
            out.append("warnings_truncated: %d more" % self.n_dropped)
        return out


def _excerpt(s):
    return "'" + s[:40] + ("...'" if len(s) > 40 else "'")


def _fold_fullwidth(s):
    out = []
    for ch in s:
        c = ord(ch)
        if 0xFF01 <= c <= 0xFF5E:
            out.append(chr(c - 0xFEE0))
        elif c == 0x3000:
            out.append(" ")
        elif c == 0x2212:
            out.append("-")
        else:
            out.append(ch)
    return "".join(out)


def _split_missing_separators(key, value, out, warnings):
    while True:
        found = None
        n_semicolons = 0
        for p, ch in enumerate(value):
            if ch == ";":
                n_semicolons += 1
            if ch != " ":
                continue
            for name, _ in KEYS:
                if key == "item":
                    later = n_semicolons >= 3 and KEY_ORDER[name] >= KEY_ORDER["item"]
                else:
                    later = KEY_ORDER[name] > KEY_ORDER[key]
                if not later or not value.startswith(name, p + 1):
                    continue
                if p + 1 + len(name) < len(value) and value[p + 1 + len(name)] == ":":
                    found = (p, name)
                    break
            if found:
                break
        if not found:
            break
        p, name = found
        warnings.add("missing_separator", "before '%s:'" % name)
        out.append((key, value[:p].strip()))
        key, value = name, value[p + 1 + len(name) + 1 :].strip()
    out.append((key, value))


def _split_segments(text, warnings):
    out = []
    pieces = text.split("|")
    n_empty = 0
    for raw in pieces:
        seg = raw.strip(" \t\n\r\f\v\u3000")
        if not seg:
            n_empty += 1
            continue
        if ":" in seg:
            name, value = seg.split(":", 1)
            name = "".join(c.lower() if c.isascii() else c for c in name.strip(" \t\n\r\f\v\u3000"))
            value = value.strip(" \t\n\r\f\v\u3000")
            if name not in KEY_ORDER:
                warnings.add("unknown_key", _excerpt(name) + " ignored")
                continue
        else:
            name, sep, value = seg.partition(" ")
            name = name.lower()
            if name not in KEY_ORDER or not sep:
                warnings.add("missing_key", "segment " + _excerpt(seg) + " ignored")
                continue
            warnings.add("missing_colon", "after '%s'" % name)
            value = value.strip(" \t\n\r\f\v\u3000")
        _split_missing_separators(name, value, out, warnings)
    if n_empty > 1 or (n_empty == 1 and text != ""):
        warnings.add("empty_segment", "%d empty segment(s) skipped" % n_empty)
    return out


def _number(x):
    return int(x) if x == int(x) and abs(x) <= 2**53 else x


_DECIMAL = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


def _parse_decimal(text, max_abs):
    """Canonical decimals only ("1080", "-50", "12.50", "1,080"); None otherwise."""
    s = _fold_fullwidth(text).strip()
    if not _DECIMAL.fullmatch(s):
        return None
    x = float(s.replace(",", ""))
    if not math.isfinite(x) or abs(x) > max_abs:
        return None
    return _number(x) if x != 0 else 0


def _amount(what, raw, warnings):
    if not raw.strip():
        return None
    v = _parse_decimal(raw, MAX_ABS_AMOUNT)
    if v is None:
        warnings.add("invalid_amount", "%s %s" % (what, _excerpt(raw)))
    return v


def _text(key, raw, normalize, warnings):
    if len(raw) > MAX_VALUE_CHARS:
        warnings.add("value_too_long", "%s cut to %d characters" % (key, MAX_VALUE_CHARS))
        raw = raw[:MAX_VALUE_CHARS]
    out = normalize(raw)
    return out if out else None


_POSTAL = re.compile("\u3012[ \t\n\r\f\v]*(?:[0-9\uff10-\uff19]{3}[-\uff0d]?[0-9\uff10-\uff19]{4}(?![0-9\uff10-\uff19]))?")


def normalize_address(s):
    return collapse_whitespace(_POSTAL.sub(" ", s))


_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u30fc\uff70"), "-")


def normalize_phone(s):
    """Port of src/extract/normalize_phone.cpp: the first number as printed, without labels; "" if < 4 digits."""
    s = _fold_fullwidth(s).translate(_DASHES)
    begin = next((i for i, ch in enumerate(s) if ch.isascii() and ch.isdigit()), len(s))
    if begin == len(s):
        return ""
    while begin > 0 and s[begin - 1] in "+(":
        begin -= 1
    out, n_digits, depth = [], 0, 0
    i = begin
    while i < len(s):
        ch = s[i]
        if "0" <= ch <= "9":
            n_digits += 1
        elif ch == "(":
            if i + 1 >= len(s) or not ("0" <= s[i + 1] <= "9"):
                break
            depth += 1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        elif ch not in "+-./ \t":
            break
        out.append(" " if ch == "\t" else ch)
        i += 1
    while out and depth > 0:
        if out.pop() == "(":
            depth -= 1
    while out and not ("0" <= out[-1] <= "9") and out[-1] != ")":
        out.pop()
    return collapse_whitespace("".join(out)) if n_digits >= 4 else ""


def _valid_date(y, m, d):
    days = [31, 29 if (y % 4 == 0 and y % 100 != 0) or y % 400 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return 1900 <= y <= 2100 and 1 <= m <= 12 and 1 <= d <= days[m - 1]


def _normalize_date(s):
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", _fold_fullwidth(s).strip())
    if not m or not _valid_date(*map(int, m.groups())):
        return None
    return "%04d-%02d-%02d" % tuple(map(int, m.groups()))


def _normalize_time(s):
    m = re.fullmatch(r"(\d{1,2}):(\d{2})(?::\d{2})?", _fold_fullwidth(s).strip())
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        return None
    return "%02d:%02d" % (int(m.group(1)), int(m.group(2)))


def _normalize_currency(s):
    c = _fold_fullwidth(s).strip().upper()
    return c if c in ISO_CODES else None


def _parse_item(value, index, warnings):
    parts = [p.strip(" \t\n\r\f\v\u3000") for p in value.split(";")]
    where = "item %d" % (index + 1)
    if len(parts) < 4:
        warnings.add("truncated_item", "%s has %d of 4 fields" % (where, len(parts)))
        parts += [""] * (4 - len(parts))
    elif len(parts) >= 7 and all(_parse_decimal(parts[k], MAX_ABS_QUANTITY if k in (1, 4) else MAX_ABS_AMOUNT)
                                 is not None for k in (1, 2, 4, 5)):
        # Two items run together, the second one's "| item: description" lost: the first keeps its own parts.
        warnings.add("merged_items", "%s has %d fields: a second item without its description is dropped"
                     % (where, len(parts)))
        parts = parts[:4]
    elif len(parts) > 4:
        warnings.add("extra_item_fields", "%s has %d fields" % (where, len(parts)))
        extra = parts[1:-3]
        if all(re.fullmatch(r"(?:[0-9][0-9,.]*)?", p, re.ASCII) for p in extra):
            extra = []  # bare numbers the model wrote twice: dropped
        parts = ["/".join(parts[:1] + extra)] + parts[-3:]
    item = {"description": _text("description", parts[0], collapse_whitespace, warnings), "quantity": None}
    if parts[1]:
        q = _parse_decimal(parts[1], MAX_ABS_QUANTITY)
        if q is None:
            warnings.add("invalid_quantity", "%s %s" % (where, _excerpt(parts[1])))
        item["quantity"] = q
    item["unit_price"] = _amount(where + " unit_price", parts[2], warnings)
    item["amount"] = _amount(where + " amount", parts[3], warnings)
    if all(item[f] is None for f in ITEM_FIELDS):
        warnings.add("empty_item", where + " dropped")
        return None
    return item


def empty_fields():
    out = {field: None for _, field in KEYS}
    out["line_items"] = []
    out["warnings"] = []
    return out


def target_to_fields(text):
    """Target text -> schema dict (every key, absent = None) plus "warnings". Never raises on str input."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    out = empty_fields()
    warnings = _Warnings()
    text = _SURROGATE.sub("\ufffd", str(text))
    if len(text) > MAX_TARGET_CHARS:
        warnings.add("input_too_long", "cut to %d characters" % MAX_TARGET_CHARS)
        text = text[:MAX_TARGET_CHARS]
    if "\ufffd" in text:
        warnings.add("invalid_utf8", "text contains U+FFFD")
    text = text.replace("\uff5c", "|").replace("\uff1b", ";").replace("\uff1a", ":")
    seen = set()
    normalizers = {
        "name": lambda v: _text("name", v, collapse_whitespace, warnings),
        "addr": lambda v: _text("addr", v, normalize_address, warnings),
        "tel": lambda v: _text("tel", v, normalize_phone, warnings),
        "date": _normalize_date,
        "time": _normalize_time,
        "cur": _normalize_currency,
    }
    for key, value in _split_segments(text, warnings):
        field = KEY_FIELD[key]
        if key == "item":
            if len(out["line_items"]) >= MAX_LINE_ITEMS:
                warnings.add("too_many_items", "items after %d dropped" % MAX_LINE_ITEMS)
                continue
            item = _parse_item(value, len(out["line_items"]), warnings)
            if item is not None:
                out["line_items"].append(item)
            continue
        if key in seen:
            warnings.add("duplicate_key", "%s %s" % (key, _excerpt(value)))
        seen.add(key)
        if out[field] is not None:
            continue
        if not value:
            warnings.add("empty_value", key)
            continue
        if key == "tax" and " + " in value:
            terms = [_parse_decimal(t, MAX_ABS_AMOUNT) for t in value.split(" + ")]
            if any(t is None for t in terms):
                warnings.add("invalid_amount", "tax %s" % _excerpt(value))
                out[field] = None
            else:
                out[field] = _number(round(sum(terms) * 100) / 100)
            continue
        if key in AMOUNT_KEYS:
            out[field] = _amount(key, value, warnings)
            continue
        v = normalizers[key](value)
        if v is None:
            warnings.add("invalid_value", "%s %s" % (key, _excerpt(value)))
        out[field] = v
    out["warnings"] = warnings.to_list()
    return out


# ---- self-test -----------------------------------------------------------------------------------


def _selftest():
    n_checks = 0

    def check(cond, what):
        nonlocal n_checks
        n_checks += 1
        if not cond:
            raise AssertionError(what)

    examples_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "extract_target_examples.json")
    if os.path.exists(examples_path):
        with open(examples_path, encoding="utf-8") as f:
            examples = json.load(f)["examples"]
        for ex in examples:
            target = fields_to_target(ex["fields"])
            check(target == ex["target"], "%s: writer gave %r, expected %r" % (ex["name"], target, ex["target"]))
            parsed = target_to_fields(ex["target"])
            parsed.pop("warnings")
            expected = ex.get("parsed", ex["fields"])
            check(parsed == expected, "%s: parser gave %r, expected %r" % (ex["name"], parsed, expected))
            check(fields_to_target(parsed) == fields_to_target(expected), ex["name"] + ": write(parse(t)) differs")
        print("shared examples: %d ok" % len(examples))
    else:
        print("shared examples not found at %s; built-in checks only" % examples_path)

    merged = target_to_fields("item: 料理酒 ; 1 ; 179 ; 17 ; 1 ; 303 ; 303 | item: 麦茶 2L ; 1 ; 120 ; 120")
    check([it["description"] for it in merged["line_items"]] == ["料理酒", "麦茶 2L"], "merged items")
    check(merged["line_items"][0]["unit_price"] == 179 and merged["line_items"][0]["amount"] == 17, "merged parts")
    check(any(w.startswith("merged_items") for w in merged["warnings"]), "merged warning")
    check(target_to_fields("item: a ; b ; c ; d ; 1 ; 2 ; 2")["line_items"][0]["description"] == "a/b/c/d", "a/b/c/d")
    check(target_to_fields("item: a ; 1 ; 2x ; b ; 1 ; 2 ; 2")["line_items"][0]["description"] == "a/1/2x/b", "2x")
    check(format_amount(1080, False) == "1080", "1080")
    check(format_amount(1080, True) == "1080.00", "1080.00")
    check(format_amount(12.5, False) == "12.50", "12.50")
    check(format_amount(-50, False) == "-50", "-50")
    check(format_amount(-0.0, False) == "0", "-0")
    check(format_amount(1e20, False) == "100000000000000000000", "1e20")
    check(format_quantity(0.345) == "0.345", "0.345")
    check(shortest_decimal(0.1 + 0.2) == "0.30000000000000004", "0.1+0.2")
    check(fields_to_target({"supplier_name": 42, "total_amount": "1,080", "currency": True}) == "name: 42 | total: 1,080",
          "junk fields")

    f = target_to_fields("name: Shop | item: Coffee ; 1 ; 3.50 ; 3.50 | item: Tea ; 2")
    check(len(f["line_items"]) == 2 and f["line_items"][1]["quantity"] == 2, "truncated item")
    check(any(w.startswith("truncated_item:") for w in f["warnings"]), "truncated warning")
    f = target_to_fields("name: A | color: red | name: B | total: 5 | total: 6 | tax: | | NET: 4")
    check(f["supplier_name"] == "A" and f["total_amount"] == 5 and f["net_amount"] == 4, "dup/unknown keys")
    f = target_to_fields("name: Shop | item: A ; 1 ; 2 ; 2 item: B ; 1 ; 3 ; 3 net: 5 tax: 0 | total 5")
    check(len(f["line_items"]) == 2 and f["net_amount"] == 5 and f["total_amount"] == 5, "missing separators")
    f = target_to_fields("total: 5 | item: Service tax: 10% ; 1 ; 5 ; 5")
    check(f["line_items"][0]["description"] == "Service tax: 10%", "key inside description")
    f = target_to_fields("item: a ; b ; c ; 1 ; 2 ; 2")
    check(f["line_items"][0]["description"] == "a/b/c" and f["line_items"][0]["amount"] == 2, "extra fields")
    f = target_to_fields("tax: nan | total: 1e999 | net: 99999999999999999999")
    check(f["total_tax_amount"] is None and f["total_amount"] is None and f["net_amount"] is None, "garbage numbers")
    f = target_to_fields("addr: 〒160-0023 東京都新宿区 | tel: TEL 03-1234-5678 FAX 03-1234-5679")
    check(f["supplier_address"] == "東京都新宿区" and f["supplier_phone"] == "03-1234-5678", "addr/tel")
    check(target_to_fields("|" * 10000)["line_items"] == [], "10k bars")
    check(target_to_fields(b"name: Caf\xe9")["supplier_name"] == "Caf\ufffd", "invalid utf-8 bytes")
    f = target_to_fields("".join("zz: %d | " % i for i in range(5000)))
    check(len(f["warnings"]) == MAX_WARNINGS + 1, "warnings cap")
    f = target_to_fields("name：全角 ｜ total：１，０８０")
    check(f["supplier_name"] == "全角" and f["total_amount"] == 1080, "full-width separators")
    print("selftest: %d checks ok" % n_checks)


if __name__ == "__main__":
    if "--selftest" in sys.argv[1:]:
        _selftest()
    else:
        print(__doc__)

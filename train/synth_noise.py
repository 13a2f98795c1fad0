"""OCR-like noise on a receipt made of rows of boxes.

A receipt is a list of rows; a row is a list of box strings, left to right. The OCR text is every box on its own
line, rows top to bottom (the shared data's reading order). Noise only touches the text, never the fields: the model
must learn to read "1,2O0" as 1200.
"""

import unicodedata

# Confusions seen in OCR of thermal receipts, both directions where it makes sense.
CONFUSIONS = {
    "0": "OD", "O": "0", "o": "0", "1": "lI", "l": "1", "I": "1", "5": "S", "S": "5", "8": "B", "B": "8",
    "2": "Z", "6": "b", "9": "g", ",": ".", ".": ",", ":": ";",
    "円": "内門", "ー": "-一", "-": "ー", "一": "ー", "ロ": "口", "口": "ロ", "カ": "力", "力": "カ",
    "エ": "工", "工": "エ", "ニ": "二", "二": "ニ", "ハ": "八", "八": "ハ", "タ": "夕", "夕": "タ",
    "ト": "卜", "へ": "ヘ", "ヘ": "へ", "¥": "Y\\", "※": "*X", "＊": "*", "・": ".", "。": ".",
    "合": "台", "計": "言", "税": "悦", "釣": "鈎", "預": "頂",
}


def _half_table():
    """Full-width katakana (and voiced pairs) to half-width, built from NFKC of the half-width block."""
    table = {}
    for cp in range(0xFF66, 0xFFA0):
        h = chr(cp)
        table[unicodedata.normalize("NFKC", h)] = h
    for base in list(table.values()):
        for mark in ("\uff9e", "\uff9f"):
            full = unicodedata.normalize("NFKC", base + mark)
            if len(full) == 1:
                table[full] = base + mark
    table["ー"] = "ｰ"
    return table


_HALF = _half_table()


def to_halfwidth_kana(s):
    """ｵﾆｷﾞﾘ style: katakana and the long-vowel mark become half-width; other characters stay."""
    return "".join(_HALF.get(c, c) for c in s)


def char_noise(rng, s, p):
    out = []
    for c in s:
        r = rng.random()
        if r < p and c in CONFUSIONS:
            out.append(rng.choice(CONFUSIONS[c]))
        elif r < p * 1.3 and c != " " and len(s) > 3:
            continue  # dropped character
        elif r < p * 1.4 and c == " ":
            continue  # lost space
        else:
            out.append(c)
    return "".join(out)


def apply_noise(rng, rows, level, joined=False):
    """rows: [[box, ...], ...] -> list of OCR lines. level 0 = clean layout only (still box-per-line).

    joined: one line per row instead, its boxes joined by a space (OCR engines that return text lines, such as
    Tesseract, rather than boxes); the noise is the same, drawn from rng the same way."""
    p_char = [0.0, 0.008, 0.02][level]
    p_row = [0.0, 0.05, 0.12][level]
    lines = []
    for row in rows:
        n_before = len(lines)
        boxes = [b for b in row if b.strip()]
        if not boxes:
            continue
        r = rng.random()
        if len(boxes) > 1 and r < p_row:
            boxes = [" ".join(boxes)]  # boxes merged by the detector
        elif r < 2 * p_row:
            i = rng.randrange(len(boxes))
            b = boxes[i]
            if " " in b.strip():
                cut = rng.choice([k for k, c in enumerate(b) if c == " "])
                boxes[i:i + 1] = [b[:cut].strip(), b[cut + 1:].strip()]  # one box split in two
        elif len(boxes) > 1 and r < 2.5 * p_row:
            rng.shuffle(boxes)  # boxes of one row out of order (skewed scan)
        for b in boxes:
            b = char_noise(rng, b, p_char) if p_char else b
            if b.strip():
                lines.append(b.strip())
        if joined and len(lines) > n_before + 1:
            lines[n_before:] = [" ".join(lines[n_before:])]
    # Occasionally two neighbouring rows swap (rows whose centres were close).
    if level and len(lines) > 6 and rng.random() < 0.3 * level:
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return lines

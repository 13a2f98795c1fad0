"""Japanese receipt generator: konbini, supermarket, drugstore, restaurant, electronics.

generate(rng, held_out) -> (rows, fields, meta). rows are lists of OCR boxes (see synth_noise.py).
Layouts 0-3 are training layouts; layout 4 and the chains marked held-out in synth_ja_data.py are reserved for the
synthetic test set. Layout 5 (training only) mixes row styles per receipt (mixed_style): where the reduced-rate mark
sits, the amount on the item's row or the next one, a dozen quantity-line formats above or below the item, and more
tax-summary forms, so that the model learns what a quantity line or a tax line is rather than four fixed templates.
It is off unless asked for (make_data.py --mixed-share). Layout 5 never prints layout 4's own forms (a 軽 mark, "点 単価" quantity lines, the 税率/対象額/税額 table), and the
held-out split never draws it, so the test and development sets are the same as before it existed.
"""

import datetime

from synth_ja_data import BRANCH_SUFFIX, BUILDINGS, CHAINS, COMPANY_SUFFIX, FOOTERS, ITEMS, MENUS, PAYMENTS, PLACES, \
    STAFF
from synth_noise import to_halfwidth_kana

TRAIN_LAYOUTS = [0, 1, 2, 3]
TEST_LAYOUTS = [4]
MIXED_LAYOUT = 5
# Reduced-rate marks of the mixed layout (layout 4's 軽 stays held out).
MIXED_MARKS = ["※", "＊", "*", "◎", "☆", "★", "●", "#", "8%", "(8%)"]
# Quantity lines of the mixed layout: q = quantity, u = unit price as a bare number, U = unit price as printed money.
QTY_FORMATS = ["{q}個 X 単{u}", "@{u} x {q}", "({q}コ X {u})", "{q}個 @{u}", "{q}コ × {U}", "({q}個 × {U})",
               "{U} × {q}", "数量 {q} @{U}", "{q}個 ×{u}円", "(@{u} × {q}個)", "{q} X @{u}", "@{U} {q}個"]
WEEKDAYS = "月火水木金土日"


def yen(rng_style, v):
    """Format an amount the way this receipt prints money."""
    s = f"{abs(v):,}" if rng_style["comma"] else str(abs(v))
    sign = "-" if v < 0 else ""
    cur = rng_style["cur"]
    if cur == "¥":
        return f"{sign}¥{s}"
    if cur == "\\":
        return f"{sign}\\{s}"
    if cur == "円":
        return f"{sign}{s}円"
    return f"{sign}{s}"


def era_date(d):
    y = d.year - 2018
    return f"令和{'元' if y == 1 else y}年{d.month}月{d.day}日"


def format_date(rng, d, style):
    wd = WEEKDAYS[d.weekday()]
    if style == 0:
        return f"{d.year}年{d.month:02d}月{d.day:02d}日({wd})"
    if style == 1:
        return f"{d.year}/{d.month:02d}/{d.day:02d}({wd})"
    if style == 2:
        return f"{d.year % 100:02d}/{d.month:02d}/{d.day:02d}"
    if style == 3:
        return era_date(d) + (f"({wd})" if rng.random() < 0.5 else "")
    if style == 4:
        return f"{d.year}-{d.month:02d}-{d.day:02d}"
    return f"{d.year}年{d.month}月{d.day}日 {wd}曜日"


def format_time(rng, t, style):
    h, m, s = t
    if style == 0:
        return f"{h:02d}:{m:02d}"
    if style == 1:
        return f"{h:02d}:{m:02d}:{s:02d}"
    return f"{h}時{m:02d}分"


_KANA = ("ア イ ウ エ オ カ キ ク ケ コ サ シ ス セ ソ タ チ ツ テ ト ナ ニ ネ ノ ハ ヒ フ ヘ ホ マ ミ ム メ モ ヤ ユ ヨ ラ リ ル "
         "レ ロ ワ ン ガ ギ グ ゲ ゴ ザ ジ ズ ゼ ゾ ダ デ ド バ ビ ブ ベ ボ パ ピ プ ペ ポ キャ シュ チョ ティ ファ").split()
_KANJI = "山田中川本松竹梅花村北南東西大小高新光和栄福丸三富金銀春秋朝日青緑森林泉岡島野原宮"
_INVENTED_SUFFIX = {
    "konbini": ["マート", "ストア", "ミニ", "24"],
    "super": ["スーパー", "ストア", "フーズ", "マーケット", "食品館", ""],
    "drug": ["薬局", "ドラッグ", "薬品", "ファーマシー"],
    "restaurant": ["食堂", "亭", "屋", "キッチン", "珈琲店", "うどん", "ラーメン"],
    "electronics": ["デンキ", "電機", "カメラ", "でんき"],
}


def invented_chain(rng, kind):
    """A store name that exists nowhere: katakana syllables, kanji or Latin letters plus a suffix for the kind."""
    style = rng.random()
    if style < 0.55:
        word = "".join(rng.choice(_KANA) for _ in range(rng.randint(2, 5)))
        if rng.random() < 0.25:
            word = word[:2] + "ー" + word[2:]
    elif style < 0.85:
        word = "".join(rng.choice(_KANJI) for _ in range(rng.randint(1, 3)))
    else:
        word = "".join(rng.choice("BCDFGHKLMNPRSTVZ") + rng.choice("aeiou") for _ in range(rng.randint(2, 3)))
        word = word.capitalize()
    suffix = rng.choice(_INVENTED_SUFFIX[kind])
    return word + (" " if word[-1].isascii() and suffix and rng.random() < 0.5 else "") + suffix


def make_store(rng, kind, held_out):
    chains = [c for c in CHAINS if c[1] == kind and (held_out or not c[2])]
    if held_out:
        hc = [c for c in chains if c[2]]
        if hc and rng.random() < 0.5:
            chains = hc
    chain = rng.choice(chains)[0]
    if not held_out and rng.random() < 0.3:
        chain = invented_chain(rng, kind)  # never-seen names: the model must copy the name, not recall it
    pref, city, towns, zip3, area = rng.choice(PLACES)
    town = rng.choice(towns)
    branch = town + rng.choice(BRANCH_SUFFIX) if rng.random() < 0.8 else city.rstrip("区市") + rng.choice(BRANCH_SUFFIX)
    postal = f"〒{zip3}-{rng.randrange(0, 10000):04d}"
    a, b, c = rng.randrange(1, 9), rng.randrange(1, 40), rng.randrange(1, 30)
    if rng.random() < 0.7:
        street = f"{town}{a}-{b}-{c}"
    else:
        street = f"{town}{a}丁目{b}番{c}号"
    addr_lines = [f"{pref}{city}{street}"] if rng.random() < 0.6 else [f"{pref}{city}", street]
    if rng.random() < 0.3:
        addr_lines.append(f"{town}{rng.choice(BUILDINGS)} {rng.randrange(1, 9)}F")
    if area in ("03", "06"):
        phone = f"{area}-{rng.randrange(1000, 9999)}-{rng.randrange(0, 10000):04d}"
    else:
        phone = f"{area}-{rng.randrange(100, 999)}-{rng.randrange(0, 10000):04d}"
    if rng.random() < 0.15:
        phone = "(" + phone.replace("-", ")", 1)
    return dict(chain=chain, branch=branch, postal=postal, addr_lines=addr_lines, phone=phone,
                company=rng.choice(COMPANY_SUFFIX) + rng.choice(["セブン", "サン", "ミドリ", "アオバ", "ヒカリ"]) + "商事")


def pick_items(rng, kind, chain, n_items=None):
    """The products of one basket. n_items: (lo, hi) to draw the count from instead (long receipts)."""
    pool = MENUS.get(chain, ITEMS[kind])
    n = max(1, min(len(pool), int(rng.expovariate(1 / {"konbini": 3, "super": 8, "drug": 4,
                                                     "restaurant": 3, "electronics": 2}[kind])) + 1))
    n = min(n, 25) if n_items is None else rng.randint(*n_items)
    out = []
    picks = rng.sample(pool, min(n, len(pool)))
    picks += [rng.choice(pool) for _ in range(n - len(picks))]  # big baskets repeat a product now and then
    for name, price, reduced in picks:
        if rng.random() < 0.5:
            price = max(1, int(round(price * rng.uniform(0.85, 1.15))))
            if price > 30:
                price = price - price % 10 + rng.choice([0, 8, 8, 0, 5, 9]) if price > 100 else price
        qty = 1 if rng.random() < 0.82 else rng.choice([2, 2, 2, 3, 4, 5])
        out.append(dict(name=name, unit=price, qty=qty, reduced=reduced))
    return out


def mixed_style(rng):
    """Row styles of one layout-5 receipt, drawn once so that its item rows are alike, as a printer's are."""
    return dict(
        mark=rng.choice(MIXED_MARKS),
        mark_pos=rng.choice(["name", "name", "amount", "amount_box"]),  # before the name, after the amount, own box
        amount_next_row=rng.random() < 0.2,  # the amount on the row under the name
        inline_qty=rng.random() < 0.15,  # name | quantity | amount on one row, no quantity line
        qty_format=rng.choice(QTY_FORMATS),
        qty_above=rng.random() < 0.2,  # the quantity line printed above the item
    )


def mixed_item_rows(rng, mix, style, name, it, m):
    """Rows of one item in layout 5: [[box, ...], ...]."""
    amount = yen(style, it["unit"] * it["qty"])
    if m and mix["mark_pos"] == "name":
        name = m + name
    elif m and mix["mark_pos"] == "amount":
        amount += m
    boxes = [name] + ([str(it["qty"])] if mix["inline_qty"] else []) + [amount]
    if m and mix["mark_pos"] == "amount_box":
        boxes.append(m)
    rows = [boxes[:1], boxes[1:]] if mix["amount_next_row"] else [boxes]
    if it["qty"] > 1 and not mix["inline_qty"]:
        q = mix["qty_format"].format(q=it["qty"], u=it["unit"], U=yen(style, it["unit"]))
        rows = [[q]] + rows if mix["qty_above"] else rows + [[q]]
    return rows


def generate(rng, held_out=False, mixed_share=0.0, n_items=None):
    """One receipt: (rows, fields, meta). mixed_share: the share of training receipts drawn in layout 5 (0 draws
    nothing from rng for it, so receipts are those of the generator before layout 5). n_items: (lo, hi) products
    per receipt instead of the usual 1-25 (pick_items)."""
    kind = rng.choice(["konbini", "konbini", "super", "super", "drug", "restaurant", "electronics"])
    layout = rng.choice(TEST_LAYOUTS) if held_out and rng.random() < 0.5 else rng.choice(TRAIN_LAYOUTS)
    if not held_out and mixed_share > 0 and rng.random() < mixed_share:  # training split only: test streams unchanged
        layout = MIXED_LAYOUT
    store = make_store(rng, kind, held_out)
    items = pick_items(rng, kind, store["chain"], n_items)
    takeout = kind == "restaurant" and rng.random() < 0.3
    for it in items:
        if kind == "restaurant":
            it["reduced"] = takeout or it["reduced"] and rng.random() < 0.5
    tax_mode = "out" if rng.random() < {"konbini": 0.05, "super": 0.4, "drug": 0.3, "restaurant": 0.35,
                                         "electronics": 0.05}[kind] else "in"
    if tax_mode == "out":
        for it in items:
            it["unit"] = max(1, int(it["unit"] / (1.08 if it["reduced"] else 1.10)))
    halfkana = rng.random() < {"super": 0.5, "drug": 0.4}.get(kind, 0.12) or layout == 2 and rng.random() < 0.5
    style = dict(
        comma=rng.random() < 0.75,
        cur=rng.choice(["¥", "¥", "", "円", "\\"]),
        mark=("軽" if layout == 4 else rng.choice(["※", "※", "＊", "*"])),
        date_style=rng.randrange(6),
        time_style=rng.choice([0, 0, 0, 1, 2]),
    )
    mix = mixed_style(rng) if layout == MIXED_LAYOUT else None
    if mix:
        style["mark"] = mix["mark"]
    d = datetime.date(2019, 10, 1) + datetime.timedelta(days=rng.randrange(0, 2200))
    t = (rng.randrange(6, 24) if kind != "konbini" else rng.randrange(0, 24), rng.randrange(60), rng.randrange(60))

    rows = []
    # --- header ---
    name_style = rng.random()
    if name_style < 0.5:
        rows.append([store["chain"]])
        rows.append([store["branch"]])
        supplier = f"{store['chain']} {store['branch']}"
    elif name_style < 0.8:
        rows.append([f"{store['chain']} {store['branch']}"])
        supplier = f"{store['chain']} {store['branch']}"
    else:
        rows.append([store["chain"]])
        supplier = store["chain"]
    if rng.random() < 0.15:
        rows.append([store["company"]])
    postal_style = rng.random()
    addr = list(store["addr_lines"])
    if postal_style < 0.4:
        rows.append([store["postal"]])
        rows += [[a] for a in addr]
    elif postal_style < 0.8:
        rows.append([store["postal"] + " " + addr[0]])
        rows += [[a] for a in addr[1:]]
    else:
        rows += [[a] for a in addr]
    phone_label = rng.choice(["TEL", "TEL:", "TEL ", "電話", "電話:", "☎", "Tel."])
    if rng.random() < 0.8:
        rows.append([f"{phone_label}{store['phone']}"] if rng.random() < 0.6 else [phone_label.strip(" :"), store["phone"]])
        phone = store["phone"]
    else:
        phone = None
    if rng.random() < 0.75:
        reg = "T" + "".join(str(rng.randrange(10)) for _ in range(13))
        rs = rng.random()
        if rs < 0.5:
            rows.append([f"登録番号 {reg}"])
        elif rs < 0.8:
            rows.append(["登録番号:", reg])
        else:
            rows.append(["適格請求書発行事業者登録番号"])
            rows.append([reg])
    title = rng.choice(["領収書", "領 収 書", "レシート", "お買上明細", "", "", "【領収証】"])
    if title:
        rows.append([title])
    date_s = format_date(rng, d, style["date_style"])
    time_s = format_time(rng, t, style["time_style"])
    reg_s = rng.choice([f"レジ{rng.randrange(1, 12):04d}", f"レジ#{rng.randrange(1, 9)}", f"POS{rng.randrange(1, 9)}", ""])
    staff = rng.choice([f"責No.{rng.randrange(1, 999):03d}", f"担当:{rng.choice(STAFF)}", f"担当者 {rng.choice(STAFF)}", ""])
    if rng.random() < 0.6:
        rows.append([date_s, time_s] + ([reg_s] if reg_s else []))
        if staff:
            rows.append([staff])
    else:
        rows.append([x for x in (reg_s, staff) if x] or ["No." + str(rng.randrange(1000, 9999))])
        rows.append([date_s + " " + time_s])
    if kind == "restaurant" and rng.random() < 0.6:
        rows.append([f"テーブル {rng.randrange(1, 30)}", f"{rng.randrange(1, 5)}名様"])
    if layout == 3:
        rows.append(["商品名", "数量", "金額"])

    # --- items ---
    mark = style["mark"]
    line_items = []
    discounts_left = 0 if rng.random() < 0.75 else rng.choice([1, 1, 2])
    for it in items:
        name = to_halfwidth_kana(it["name"]) if halfkana else it["name"]
        amount = it["unit"] * it["qty"]
        m = mark if it["reduced"] else ""
        if kind == "electronics" and rng.random() < 0.4:
            rows.append(["49" + "".join(str(rng.randrange(10)) for _ in range(11))])
        if layout == 0:
            rows.append([name, yen(style, amount) + m])
            if it["qty"] > 1:
                rows.append([f"{it['qty']}個 X 単{it['unit']}"])
        elif layout == 1:
            if it["qty"] > 1:
                rows.append([m + name])
                rows.append([f"@{it['unit']} x {it['qty']}", yen(style, amount)])
            else:
                rows.append([m + name, yen(style, amount)])
        elif layout == 2:
            code = f"{rng.randrange(1, 9999):04d}"
            rows.append([f"{code} {name}", yen(style, amount) + (" " + m if m else "")])
            if it["qty"] > 1:
                rows.append([f"({it['qty']}コ X {it['unit']})"])
        elif layout == 3:
            rows.append([name + (" " + m if m else ""), str(it["qty"]), yen(style, amount)])
        elif layout == 4:  # test only
            rows.append([name, f"{yen(style, amount)}{m}"])
            if it["qty"] > 1:
                rows.append([f"({it['qty']}点 単価{yen(style, it['unit'])})"])
        else:  # layout 5, training only
            rows += mixed_item_rows(rng, mix, style, name, it, m)
        line_items.append(dict(description=name, quantity=it["qty"], unit_price=it["unit"], amount=amount,
                               reduced=it["reduced"]))
        if discounts_left and rng.random() < 0.4:
            discounts_left -= 1
            ds = rng.random()
            if ds < 0.4:
                dname, dv = rng.choice(["値引", "見切値引", "タイムセール値引"]), -rng.choice([10, 20, 30, 50, 100])
            elif ds < 0.8:
                pct = rng.choice([10, 20, 30, 50])
                dname, dv = f"割引 {pct}%", -max(1, amount * pct // 100)
            else:
                dname, dv = rng.choice(["クーポン値引", "クーポン"]), -rng.choice([30, 50, 100])
            dv = max(dv, -amount)
            rows.append([dname, yen(style, dv)] if layout != 3 and not (mix and mix["inline_qty"])
                        else [dname, "", yen(style, dv)])
            line_items.append(dict(description=dname, quantity=None, unit_price=None, amount=dv,
                                   reduced=it["reduced"]))

    # --- totals ---
    n_points = sum(it["qty"] for it in items)
    base8 = sum(li["amount"] for li in line_items if li["reduced"])
    base10 = sum(li["amount"] for li in line_items if not li["reduced"])
    subtotal = base8 + base10
    if tax_mode == "in":
        tax8, tax10 = base8 * 8 // 108, base10 * 10 // 110
        total = subtotal
    else:
        tax8, tax10 = base8 * 8 // 100, base10 * 10 // 100
        total = subtotal + tax8 + tax10
    tax = tax8 + tax10
    show_subtotal = tax_mode == "out" or rng.random() < 0.7
    if show_subtotal:
        label = rng.choice(["小計", "小 計", "小計"]) + (f" ({n_points}点)" if rng.random() < 0.4 else "")
        rows.append([label, yen(style, subtotal)])
    tstyle = rng.randrange(3) if layout != 4 else 3
    if mix and rng.random() < 0.4:
        tstyle = rng.choice([5, 6])
    if tax_mode == "out":
        for r, b, tv in ((8, base8, tax8), (10, base10, tax10)):
            if b:
                if tstyle in (0, 6):
                    rows.append([f"外税{r}%", yen(style, tv)])
                elif tstyle == 5:
                    rows.append([f"{r}%対象 {yen(style, b)}"])
                    rows.append([f"消費税({r}%)", yen(style, tv)])
                else:
                    rows.append([f"({r}%対象", yen(style, b) + ")"])
                    rows.append([f"外税{r}%", yen(style, tv)])
    if tax_mode == "out" and tstyle == 2:
        rows.append(["消費税等", yen(style, tax)])
    if tax_mode == "out" and tstyle == 6:
        rows.append([rng.choice(["消費税", "消費税額", "税額合計"]), yen(style, tax)])
    rows.append([rng.choice(["合計", "合 計", "お買上計", "合計金額", "お会計"]), yen(style, total)])
    if tax_mode == "in":
        if tstyle == 0:
            rows.append(["(内消費税等", yen(style, tax) + ")"])
        elif tstyle == 1:
            for r, b, tv in ((8, base8, tax8), (10, base10, tax10)):
                if b:
                    rows.append([f"({r}%対象", yen(style, b), f"内税", yen(style, tv) + ")"])
        elif tstyle == 2:
            for r, b, tv in ((8, base8, tax8), (10, base10, tax10)):
                if b:
                    rows.append([f"{r}%対象計", yen(style, b)])
                    rows.append([f"(内消費税{r}%", yen(style, tv) + ")"])
        elif tstyle == 5:
            for r, b, tv in ((8, base8, tax8), (10, base10, tax10)):
                if b:
                    rows.append([f"{r}%対象 {yen(style, b)}", f"(税 {yen(style, tv)})"])
        elif tstyle == 6:
            rows.append([rng.choice(["(うち消費税", "(内税額", "(税込 内消費税"]), yen(style, tax) + ")"])
        else:
            rows.append(["税率", "対象額", "税額"])
            for r, b, tv in ((8, base8, tax8), (10, base10, tax10)):
                if b:
                    rows.append([f"{r}%", yen(style, b), yen(style, tv)])
    pay = rng.choice(PAYMENTS[:1] * 4 + PAYMENTS[1:] if kind != "electronics" else ["現金", "クレジット", "クレジット"])
    if pay == "現金":
        paid = total if rng.random() < 0.1 else ((total // 1000) + 1) * 1000 if rng.random() < 0.7 else \
            ((total // 10000) + 1) * 10000
        rows.append([rng.choice(["お預り", "お預かり", "お預り現金", "現金"]), yen(style, paid)])
        rows.append([rng.choice(["お釣り", "お釣", "おつり"]), yen(style, paid - total)])
    else:
        rows.append([pay + rng.choice(["", "支払", "決済"]), yen(style, total)])
        if pay in ("交通系IC", "楽天Edy", "nanaco", "WAON") and rng.random() < 0.6:
            rows.append(["残高", yen(style, rng.randrange(0, 20000))])
    if kind == "electronics" and rng.random() < 0.6:
        rows.append(["今回獲得ポイント", f"{total // 10}P"])
    if any(li["reduced"] for li in line_items) and mark != "軽":
        rows.append([rng.choice([f"{mark}印は軽減税率(8%)適用商品", f"{mark}は軽減税率対象商品です",
                                 f"「{mark}」は軽減税率8%対象"])])
    elif mark == "軽" and any(li["reduced"] for li in line_items):
        rows.append(["軽印は軽減税率適用商品"])
    if rng.random() < 0.7:
        rows.append([rng.choice(FOOTERS)])

    # Per-rate taxes when the receipt prints no total tax: the target writes them as "a + b" (target_format.py).
    total_tax_printed = (tax_mode == "out" and tstyle in (2, 6)) or (tax_mode == "in" and tstyle in (0, 6))
    tax_parts = [tv for _, b, tv in ((8, base8, tax8), (10, base10, tax10)) if b]
    fields = dict(
        supplier_name=supplier,
        supplier_address=" ".join(addr),
        supplier_phone=phone,
        receipt_date=d.isoformat(),
        purchase_time=f"{t[0]:02d}:{t[1]:02d}",
        currency="JPY",
        line_items=[{k: li[k] for k in ("description", "quantity", "unit_price", "amount")} for li in line_items],
        net_amount=subtotal if show_subtotal else None,
        total_tax_amount=tax,
        total_amount=total,
    )
    meta = dict(kind=kind, layout=layout, tax_mode=tax_mode, halfkana=halfkana)
    if not total_tax_printed and len(tax_parts) > 1:
        meta["tax_parts"] = tax_parts
    return rows, fields, meta

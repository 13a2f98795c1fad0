"""English receipt generator: US, UK and Malaysian (SROIE-like) shops.

generate(rng, held_out) -> (rows, fields, meta). Layouts 0-2 train, layout 3 and the chains marked held-out are
reserved for the synthetic test set.
"""

import datetime

TRAIN_LAYOUTS = [0, 1, 2]
TEST_LAYOUTS = [3]

# (name printed, region, kind, held_out)
CHAINS = [
    ("WALMART SUPERCENTER", "us", "super", False), ("TARGET", "us", "super", False),
    ("CVS pharmacy", "us", "drug", False), ("Walgreens", "us", "drug", False),
    ("TRADER JOE'S", "us", "super", False), ("WHOLE FOODS MARKET", "us", "super", False),
    ("STARBUCKS COFFEE", "us", "cafe", False), ("SAFEWAY", "us", "super", True),
    ("TESCO", "uk", "super", False), ("Sainsbury's", "uk", "super", False), ("Boots", "uk", "drug", False),
    ("Co-op Food", "uk", "super", False), ("Pret A Manger", "uk", "cafe", False), ("WAITROSE", "uk", "super", True),
    ("99 SPEED MART S/B", "my", "super", False), ("AEON CO. (M) BHD", "my", "super", False),
    ("MR. D.I.Y. (M) SDN BHD", "my", "hardware", False), ("GUARDIAN HEALTH AND BEAUTY SDN BHD", "my", "drug", False),
    ("RESTORAN WAN SHENG", "my", "cafe", False), ("KEDAI RUNCIT SRI JAYA", "my", "super", False),
    ("SYARIKAT PERNIAGAAN GIN KEE", "my", "hardware", False), ("UNIHAKKA INTERNATIONAL SDN BHD", "my", "cafe", False),
    ("POPULAR BOOK CO. (M) SDN BHD", "my", "hardware", True), ("GARDENIA BAKERIES (KL) SDN BHD", "my", "super", True),
]

ITEMS = {
    "super": [("BANANAS", 0.59), ("MILK 2% GAL", 3.49), ("BREAD WHITE", 2.29), ("EGGS LARGE 12CT", 3.99),
              ("CHICKEN BREAST", 8.47), ("APPLES GALA", 4.12), ("ORANGE JUICE", 3.79), ("RICE 5KG", 18.90),
              ("CHEDDAR CHEESE", 4.25), ("PASTA PENNE", 1.25), ("TOMATO SAUCE", 2.15), ("COCA COLA 1.5L", 3.20),
              ("MINERAL WATER 1.5L", 1.10), ("KNORR CHICKEN STOCK", 16.85), ("MAGGI CURRY 5S", 5.60),
              ("MILO 1KG", 26.50), ("DETERGENT 2KG", 15.90), ("TISSUE 10S", 9.90), ("SUGAR 1KG", 2.85)],
    "drug": [("PANADOL 24S", 8.90), ("VITAMIN C 1000MG", 29.90), ("TOOTHPASTE", 6.50), ("SHAMPOO 400ML", 12.90),
             ("HAND SANITIZER", 4.99), ("FACE MASK 50S", 15.00), ("COTTON BUDS", 3.20), ("SUNSCREEN SPF50", 24.90),
             ("IBUPROFEN 200MG", 5.49), ("PLASTERS", 3.99)],
    "cafe": [("CAFFE LATTE GR", 4.45), ("AMERICANO TALL", 3.25), ("CROISSANT", 2.95), ("CHICKEN RICE", 6.50),
             ("NASI LEMAK", 5.00), ("TEH TARIK", 2.20), ("KOPI O", 1.80), ("MEE GORENG", 7.00), ("CLUB SANDWICH", 6.25),
             ("ICED LEMON TEA", 3.50), ("BLUEBERRY MUFFIN", 2.75)],
    "hardware": [("KF MODELLING CLAY", 9.00), ("PVC TAPE", 2.40), ("SCREWDRIVER SET", 15.90), ("A4 PAPER 500S", 12.50),
                 ("EXTENSION CORD 3M", 25.90), ("LED BULB 9W", 6.90), ("STORAGE BOX", 11.90), ("BATTERY AA 4S", 7.50),
                 ("BALL PEN BLUE", 1.20), ("CABLE TIES", 3.30)],
}

US_PLACES = [("Springfield", "IL", "62704", "217"), ("Austin", "TX", "78701", "512"), ("Seattle", "WA", "98101", "206"),
             ("Denver", "CO", "80202", "303"), ("Columbus", "OH", "43215", "614"), ("San Jose", "CA", "95113", "408")]
UK_PLACES = [("London", "SW1A 1AA", "020"), ("Manchester", "M1 1AE", "0161"), ("Leeds", "LS1 4DY", "0113"),
             ("Bristol", "BS1 5TR", "0117"), ("Glasgow", "G1 3SL", "0141")]
MY_PLACES = [("47300 PETALING JAYA", "SELANGOR", "03"), ("81100 JOHOR BAHRU", "JOHOR", "07"),
             ("41150 KLANG", "SELANGOR", "03"), ("50450 KUALA LUMPUR", "WILAYAH PERSEKUTUAN", "03"),
             ("10200 GEORGETOWN", "PULAU PINANG", "04"), ("43000 KAJANG", "SELANGOR", "03")]
STREETS = ["MAIN ST", "OAK AVE", "HIGH STREET", "MARKET ST", "STATION ROAD", "JALAN SAGU 18", "JALAN ANGSA",
           "JALAN SS 2/24", "JALAN PUCHONG", "JALAN BUKIT BINTANG", "LORONG HAJI TAIB 3"]
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


_SYLLABLES = "KA LI MU SE TO BA RA NG HA JA YA WA DA NI PU GO TAN LIM ONG SRI CHE HUA KEE".split()


def _word(rng):
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))


def invented_name(rng, region):
    """A store name that exists nowhere, shaped like the region's names."""
    w = _word(rng)
    if region == "my":
        return rng.choice([f"{w} SDN BHD", f"{w} ENTERPRISE", f"{w} TRADING", f"RESTORAN {w}", f"KEDAI RUNCIT {w}",
                           f"{w} {_word(rng)} (M) SDN BHD", f"SYARIKAT {w} {_word(rng)}"])
    w = w.capitalize() if rng.random() < 0.5 else w
    return rng.choice([f"{w} MARKET", f"{w} Pharmacy", f"{w} & CO", f"{w} Cafe", f"{w.upper()} FOODS"])


def money(v, sym=""):
    return f"{'-' if v < 0 else ''}{sym}{abs(v):,.2f}"


def generate(rng, held_out=False, n_items=None):
    """One receipt: (rows, fields, meta). n_items: (lo, hi) products instead of the usual 1-20 (long receipts)."""
    chains = [c for c in CHAINS if held_out or not c[3]]
    if held_out and rng.random() < 0.5:
        chains = [c for c in CHAINS if c[3]]
    name, region, kind, _ = rng.choice(chains)
    invent = not held_out and rng.random() < 0.4  # never-seen names and streets: copy, don't recall
    if invent:
        name = invented_name(rng, region)
    layout = rng.choice(TEST_LAYOUTS) if held_out and rng.random() < 0.5 else rng.choice(TRAIN_LAYOUTS)
    d = datetime.date(2015, 1, 1) + datetime.timedelta(days=rng.randrange(0, 3650))
    h, mi, se = rng.randrange(7, 23), rng.randrange(60), rng.randrange(60)
    rows, addr = [], []
    if region == "us":
        city, st, zipc, area = rng.choice(US_PLACES)
        addr = [f"{rng.randrange(10, 9999)} {rng.choice(STREETS[:5]).title()}", f"{city}, {st} {zipc}"]
        phone = f"({area}) 555-{rng.randrange(0, 10000):04d}"
        cur, sym, tax_rate, incl = "USD", "$", rng.choice([6.25, 7.0, 8.25, 8.875, 10.1]), False
        date_s = rng.choice([f"{d.month:02d}/{d.day:02d}/{d.year}", f"{d.month}/{d.day}/{d.year % 100:02d}",
                             f"{MONTHS[d.month - 1].title()} {d.day}, {d.year}"])
    elif region == "uk":
        city, pc, area = rng.choice(UK_PLACES)
        addr = [f"{rng.randrange(1, 300)} {rng.choice(['High Street', 'Station Road', 'Market Street', 'Church Lane'])}",
                f"{city} {pc}"]
        phone = f"{area} {rng.randrange(100, 999)} {rng.randrange(1000, 9999)}" if len(area) == 4 else \
            f"{area} {rng.randrange(1000, 9999)} {rng.randrange(1000, 9999)}"
        cur, sym, tax_rate, incl = "GBP", "£", 20.0, True
        date_s = rng.choice([f"{d.day:02d}/{d.month:02d}/{d.year}", f"{d.day:02d}/{d.month:02d}/{d.year % 100:02d}",
                             f"{d.day:02d} {MONTHS[d.month - 1]} {d.year}"])
    else:
        pc, state, area = rng.choice(MY_PLACES)
        addr = [f"NO.{rng.randrange(1, 200)}, {rng.choice(STREETS[5:])},",
                f"TAMAN {rng.choice(['DAYA', 'BERKELEY', 'MELAWATI', 'SRI GOMBAK', 'UNIVERSITI'])},", f"{pc},",
                f"{state}."]
        if invent:
            addr[0] = f"{rng.choice(['NO.', 'NO ', 'LOT ', ''])}{rng.randrange(1, 200)}, JALAN {_word(rng)} " \
                      f"{rng.randrange(1, 30)}{rng.choice(['', '/' + str(rng.randrange(1, 9))])},"
            addr[1] = f"{rng.choice(['TAMAN', 'BANDAR', 'KAMPUNG', 'PUSAT PERNIAGAAN'])} {_word(rng)},"
        if rng.random() < 0.4:
            addr = [" ".join(addr[:2]), " ".join(addr[2:])]
        phone = f"{area}-{rng.randrange(1000, 9999)} {rng.randrange(1000, 9999)}"
        cur, sym = "MYR", rng.choice(["RM", "RM", ""])
        tax_rate, incl = (6.0, True) if d < datetime.date(2018, 6, 1) else (rng.choice([0.0, 6.0]), False)
        date_s = rng.choice([f"{d.day:02d}/{d.month:02d}/{d.year}", f"{d.day:02d}-{d.month:02d}-{d.year % 100:02d}",
                             f"{d.day:02d} {MONTHS[d.month - 1]} {d.year}", f"{d.day}/{d.month}/{d.year}"])
    tax_name = {"us": "TAX", "uk": "VAT", "my": "GST" if d < datetime.date(2018, 6, 1) else "SST"}[region]
    time_s = rng.choice([f"{h:02d}:{mi:02d}", f"{h:02d}:{mi:02d}:{se:02d}",
                         f"{(h - 1) % 12 + 1}:{mi:02d}:{se:02d} {'PM' if h >= 12 else 'AM'}",
                         f"{(h - 1) % 12 + 1:02d}:{mi:02d}{'PM' if h >= 12 else 'AM'}"])

    rows.append([name])
    if region == "my" and rng.random() < 0.7:
        rows.append([f"({rng.randrange(100000, 999999)}-{rng.choice('XAKDUHWPT')})"])
    rows += [[a] for a in addr]
    has_phone = rng.random() < 0.75
    if has_phone:
        rows.append([rng.choice(["TEL: ", "Tel ", "TEL.", "PHONE: ", ""]) + phone])
    if region == "my" and tax_rate:
        rows.append([f"{tax_name} ID NO : {rng.randrange(10**11, 10**12):012d}"])
    if region == "uk":
        rows.append([f"VAT No. GB {rng.randrange(100, 999)} {rng.randrange(1000, 9999)} {rng.randrange(10, 99)}"])
    rows.append([rng.choice(["TAX INVOICE", "CASH BILL", "SALES RECEIPT", "RECEIPT", ""])])
    if layout == 1:
        rows.append(["DATE:", date_s])
        rows.append(["TIME:", time_s])
    else:
        rows.append([date_s, time_s] if rng.random() < 0.7 else [f"{date_s} {time_s}"])
    rows.append([rng.choice(["CASHIER:", "OPERATOR", "SERVED BY:", "TRANS#"]), str(rng.randrange(1, 99999))])
    if layout == 2:
        rows.append(["QTY", "DESC", "PRICE", "AMOUNT"])

    items = []
    n = min(20, int(rng.expovariate(1 / 4)) + 1) if n_items is None else rng.randint(*n_items)
    for _ in range(n):
        desc, price = rng.choice(ITEMS[kind])
        price = round(price * rng.uniform(0.85, 1.15), 2)
        if region == "my":
            price = round(price * 20) / 20
        qty = 1 if rng.random() < 0.8 else rng.choice([2, 2, 3, 4, 6])
        amount = round(price * qty, 2)
        items.append(dict(description=desc, quantity=qty, unit_price=price, amount=amount))
        if layout == 0:
            rows.append([desc, money(amount, sym if rng.random() < 0.3 else "")])
            if qty > 1:
                rows.append([f"{qty} @ {money(price)}"])
        elif layout == 1:
            if region == "my" and rng.random() < 0.5:
                rows.append([f"{rng.randrange(10**12, 10**13)}"])
            rows.append([desc])
            rows.append([f"{qty} X {money(price)}", money(amount)])
        elif layout == 2:
            rows.append([str(qty), desc, money(price), money(amount)])
        else:
            rows.append([f"{qty}x {desc}", money(amount) + (" T" if not incl and tax_rate else "")])
        if rng.random() < 0.06:
            dv = -round(amount * rng.choice([0.1, 0.2, 0.5]), 2)
            label = rng.choice(["DISCOUNT", "COUPON", "MEMBER DISC", "PROMO"])
            rows.append([label, money(dv)])
            items.append(dict(description=label, quantity=None, unit_price=None, amount=dv))
    subtotal = round(sum(i["amount"] for i in items), 2)
    if incl:
        tax = round(subtotal * tax_rate / (100 + tax_rate), 2)
        total = subtotal
    else:
        tax = round(subtotal * tax_rate / 100, 2)
        total = round(subtotal + tax, 2)
    show_sub = not incl or rng.random() < 0.5
    if show_sub:
        rows.append([rng.choice(["SUBTOTAL", "SUB TOTAL", "Sub-Total", "TOTAL SALES (EXCLUDING GST)"]),
                     money(subtotal, sym)])
    # The tax is a field only where the receipt prints it (a tax line or the GST summary below): a VAT-inclusive UK
    # receipt without a VAT line may sell zero-rated goods, so 1/6 of its total is no tax it states.
    tax_printed = bool(tax_rate and (not incl or rng.random() < 0.8))
    if tax_printed:
        rows.append([f"{tax_name} {tax_rate:g}%" if rng.random() < 0.7 else f"{tax_name} @{tax_rate:g}%",
                     money(tax, sym)])
    final = total
    rows.append([rng.choice(["TOTAL", "TOTAL:", "TOTAL AMOUNT", "GRAND TOTAL", "Total (Inclusive GST)", "BALANCE DUE"]),
                 money(total, sym)])
    if region == "my":
        rounded = round(round(total * 20) / 20, 2)
        if abs(rounded - total) > 1e-9 or rng.random() < 0.3:
            rows.append(["ROUNDING ADJUSTMENT", money(round(rounded - total, 2))])
            rows.append(["ROUNDED TOTAL (RM):", money(rounded)])
            final = rounded
    if rng.random() < 0.6:
        paid = float(int(final) + rng.choice([1, 5, 10, 20])) if final > 0 else 0.0
        rows.append([rng.choice(["CASH", "CASH TEND", "Cash"]), money(paid, sym)])
        rows.append([rng.choice(["CHANGE", "CHANGE DUE", "Change"]), money(round(paid - final, 2), sym)])
    else:
        card = rng.choice(["VISA", "MASTERCARD", "AMEX", "DEBIT CARD", "CONTACTLESS"])
        rows.append([card, money(final, sym)])
        rows.append([f"************{rng.randrange(1000, 9999)}"])
    if region == "my" and tax_rate and rng.random() < 0.6:
        tax_printed = True
        rows.append([f"{tax_name} Summary", "Amount(RM)", "Tax(RM)"])
        rows.append([f"SR @ {tax_rate:g}%", money(round(subtotal - tax if incl else subtotal, 2)), money(tax)])
    rows.append([rng.choice(["THANK YOU", "THANK YOU. PLEASE COME AGAIN", "Thank you for shopping with us",
                             "GOODS SOLD ARE NOT RETURNABLE", "Have a nice day!"])])

    fields = dict(
        supplier_name=name,
        supplier_address=" ".join(addr),
        supplier_phone=phone if has_phone else None,
        receipt_date=d.isoformat(),
        purchase_time=f"{h:02d}:{mi:02d}",
        currency=cur if sym or region != "my" else "MYR",
        line_items=items,
        net_amount=subtotal if show_sub else None,
        total_tax_amount=tax if tax_printed else None,
        total_amount=final,
    )
    return rows, fields, dict(kind=kind, layout=layout, region=region)

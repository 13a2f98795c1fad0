#!/usr/bin/env python3
"""Tokenizer side of the golden fixtures: the tiny SentencePiece models (`spm_train`) and the
tokenizer/<name>.{inp,out,dec,spm} goldens made with Hugging Face's T5Tokenizer. Used by make_goldens.py."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# ----------------------------------------------------------------------------------------------------------------
# Tokenizer training corpus: receipt lines from SROIE plus Japanese receipt-like lines written for these fixtures.
# ----------------------------------------------------------------------------------------------------------------

JAPANESE_LINES = """\
セブンイレブン 渋谷駅前店
東京都渋谷区道玄坂1丁目2番3号
〒150-0043
電話 03-1234-5678
領収書
2024年3月15日(金) 12:34
レジ 2 責任者 山田
おにぎり 鮭 ¥150
おにぎり 梅 ¥130
ｵﾆｷﾞﾘ ｼｬｹ 150
緑茶 500ml ¥140
ホットコーヒー Ｍ ¥180
サンドイッチ ハムたまご ¥298
からあげ弁当 ¥498
レジ袋 ¥3
小計 ¥1,399
消費税 8% ¥95
消費税 10% ¥12
合計 ¥1,506
お預り ¥2,000
お釣り ¥494
(内消費税等 ¥107)
※印は軽減税率対象商品です
ポイント 15P 付与
カード番号 ************1234
またのご来店をお待ちしております
ファミリーマート 新宿三丁目店
東京都新宿区新宿3-4-5
登録番号 T1234567890123
お買上げ明細
牛乳 1000ml ¥238
食パン 6枚切 ¥178
バナナ 1房 ¥198
卵 10個入 ¥268
トイレットペーパー ¥398
合計 ５点 ¥1,280
現金 ¥1,500
釣銭 ¥220
ローソン 大阪梅田店
大阪府大阪市北区梅田1-1-1
令和6年4月1日 18:05
担当 佐藤
ｺｰﾋｰ ﾌﾞﾗｯｸ 120
ｶﾌｪﾗﾃ ﾎｯﾄ 150
肉まん ¥160
ピザまん ¥170
合計金額 ¥600
クレジット ¥600
イオン 名古屋店
愛知県名古屋市中区栄2-3-4
税込合計 ¥3,245
割引 -¥100
値引 10%
点数 ７点
お客様控え
ありがとうございました
株式会社サンプル商事
請求書番号 No.00123
品名 数量 単価 金額
文房具 3 ¥120 ¥360
コピー用紙 A4 ¥550
ボールペン 黒 2本 ¥220
合計金額(税込) ¥1,130
上記正に領収いたしました
但し お品代として
ドラッグストア 横浜店
神奈川県横浜市西区1-2-3
目薬 ¥980
マスク 30枚 ¥498
ハンドソープ ¥258
小計 ¥1,736
合計 ¥1,909
電子マネー ¥1,909
残高 ¥3,091
スーパーマーケット 京都店
京都府京都市下京区四条通
キャベツ ¥158
にんじん 3本 ¥128
豚こま切れ 300g ¥398
しょうゆ 1L ¥258
米 5kg ¥2,180
合計 ¥3,122
ＰＡＹＰＡＹ ¥3,122
"""


def build_corpus(sroie_jsonl, n_receipts, with_japanese):
    lines = []
    with open(sroie_jsonl, encoding="utf-8") as f:
        for i, row in enumerate(f):
            if i >= n_receipts:
                break
            lines += [x.strip() for x in json.loads(row)["text"].split("\n") if x.strip()]
    # SROIE is almost all upper case: add lower-cased copies of every third line so that lower-case words get
    # pieces too.
    lines += [x.lower() for x in lines[::3]]
    if with_japanese:
        # Repeat so that Japanese pieces compete with the (much larger) English part of the corpus.
        lines += JAPANESE_LINES.strip().split("\n") * 8
    return lines


# name -> (spm_train flags, number of SROIE receipts, Japanese lines?)
TOKENIZERS = {
    "t5-tiny-v10": (
        ["--vocab_size=1000", "--byte_fallback=false", "--character_coverage=1.0"],
        120,
        False,
    ),
    "t5-tiny-v11": (
        ["--vocab_size=1200", "--byte_fallback=true", "--character_coverage=0.9995"],
        120,
        True,
    ),
}

SPM_COMMON = [
    "--model_type=unigram",
    "--pad_id=0",
    "--eos_id=1",
    "--unk_id=2",
    "--bos_id=-1",
    "--pad_piece=<pad>",
    "--eos_piece=</s>",
    "--unk_piece=<unk>",
    "--normalization_rule_name=nmt_nfkc",
    "--num_threads=1",
    "--random_seed=1234",
    "--hard_vocab_limit=false",
]


def train_tokenizers(sroie_jsonl, force):
    for name, (flags, n_receipts, ja) in TOKENIZERS.items():
        out_dir = os.path.join(HERE, name)
        target = os.path.join(out_dir, "spiece.model")
        if os.path.exists(target) and not force:
            print(f"[tokenizers] {target} exists, keeping it")
            continue
        if not sroie_jsonl or not os.path.exists(sroie_jsonl):
            sys.exit(f"[tokenizers] need --sroie to (re)train {target}")
        os.makedirs(out_dir, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            corpus = os.path.join(tmp, "corpus.txt")
            with open(corpus, "w", encoding="utf-8") as f:
                f.write("\n".join(build_corpus(sroie_jsonl, n_receipts, ja)) + "\n")
            prefix = os.path.join(tmp, "spiece")
            subprocess.run(["spm_train", f"--input={corpus}", f"--model_prefix={prefix}"] + SPM_COMMON + flags,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            shutil.copy(prefix + ".model", target)
        print(f"[tokenizers] wrote {target}")



# ----------------------------------------------------------------------------------------------------------------
# Tokenizer goldens.
# ----------------------------------------------------------------------------------------------------------------

# One text per line; no tabs, no newlines inside a text. Lines starting/ending with spaces are intentional.
TOKENIZER_LINES = [
    "TOTAL RM 9.00",
    "hello world",
    "TOTAL   RM    9.00",
    "   leading spaces",
    "trailing spaces   ",
    "  both  ",
    "1,234,567.89 and 12,50",
    "NO . 53 , JALAN ? YES ! don't it's I'm we've they're",
    "ｵﾆｷﾞﾘ ｼｬｹ 150",
    "おにぎり 鮭 ¥150",
    "合計 ¥1,506 お預り ¥2,000",
    "合計 ５点 ￥１，２８０",
    "〒150-0043 東京都渋谷区道玄坂1丁目2番3号",
    "※印は軽減税率対象商品です",
    "ＰＡＹＰＡＹ ｺｰﾋｰ ﾌﾞﾗｯｸ",
    "TOTAL</s>RM 9.00",
    "end </s> of text",
    "<pad> <unk> <extra_id_0> literal",
    "emoji 😀 🧾 ok",
    "café naïve ﬁ ①②",
    "tab\u3000ideographic space",
    "nbsp\u00a0here",
    "zero\u200bwidth",
    "ｶﾞｷﾞｸﾞｹﾞｺﾞ ﾊﾟﾋﾟﾌﾟﾍﾟﾎﾟ",
    "A",
    "",
    "▁ literal meta symbol",
    "** *** ----- =====",
]

# Decode-only cases: ids that HF encode never produces but a model may generate (byte pieces, unk, sentinels,
# pad/eos in the middle). Filled per tokenizer by decode_cases().


def decode_cases(tok, sp):
    n = sp.get_piece_size()
    byte_ids = [i for i in range(n) if sp.is_byte(i)]
    word = tok("TOTAL RM 9.00", add_special_tokens=False).input_ids
    cases = [
        word,
        [0] + word + [1],
        word + [1] + word,
        word[:1] + [2] + word[1:],
        word[:1] + [n, n + 99] + word[1:],  # <extra_id_99>, <extra_id_0>
        [3] + word,
    ]
    if byte_ids:
        # <0xF0><0x9F><0x98><0x80> = U+1F600, then a stray continuation byte.
        b = {sp.id_to_piece(i): i for i in byte_ids}
        cases.append(word + [b["<0xF0>"], b["<0x9F>"], b["<0x98>"], b["<0x80>"]] + word)
        cases.append(word + [b["<0x80>"]])
    return cases


def make_tokenizer_goldens(models, load_tokenizer):
    """Writes the goldens for each model folder name in `models`; load_tokenizer(folder) gives the HF tokenizer."""
    import sentencepiece as spm
    out_dir = os.path.join(HERE, "tokenizer")
    os.makedirs(out_dir, exist_ok=True)
    for name in models:
        folder = os.path.join(HERE, name)
        tok = load_tokenizer(folder)
        sp = spm.SentencePieceProcessor(model_file=os.path.join(folder, "spiece.model"))
        outs, decs, spms, spm_decs = [], [], [], []
        for line in TOKENIZER_LINES:
            assert "\t" not in line and "\n" not in line
            ids = tok(line).input_ids
            outs.append(" ".join(map(str, ids)))
            decs.append(tok.decode(ids, skip_special_tokens=True))
            raw = sp.encode(line)
            spms.append(" ".join(map(str, raw)))
            spm_decs.append(sp.decode(raw))
        write_lines(os.path.join(out_dir, f"{name}.inp"), TOKENIZER_LINES)
        write_lines(os.path.join(out_dir, f"{name}.out"), outs)
        write_lines(os.path.join(out_dir, f"{name}.dec"), decs)
        write_lines(os.path.join(out_dir, f"{name}.spm"), spms)
        cases = decode_cases(tok, sp)
        write_lines(os.path.join(out_dir, f"{name}-decode.ids"), [" ".join(map(str, c)) for c in cases])
        write_lines(os.path.join(out_dir, f"{name}-decode.dec"),
                    [tok.decode(c, skip_special_tokens=True) for c in cases])
        n_same = sum(a == b + " 1" or (b == "" and a == "1") for a, b in zip(outs, spms))
        print(f"[tokenizer] {name}: {len(TOKENIZER_LINES)} lines, {n_same} identical to raw sentencepiece + EOS")


def write_lines(path, lines):
    for x in lines:
        assert "\n" not in x and "\r" not in x, (path, x)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for x in lines:
            f.write(x + "\n")

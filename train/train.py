#!/usr/bin/env python3
"""Train the receipt T5 from scratch, in a fixed time budget, and export it in Hugging Face layout (fp16).

    python3 train/train.py --train train/out/data/train.jsonl.gz \
        --val train/out/data/val_synth.jsonl --val train/out/data/val.jsonl \
        --spm models/receipt-t5-small/spiece.model --out models/receipt-t5-small --max-minutes 11

Needs torch, transformers, sentencepiece, safetensors, numpy; nothing else, no network. Runs on one CUDA GPU
(bf16 autocast, fp32 master weights, fused AdamW); falls back to CPU for smoke tests (--tiny).

Time budget: --max-minutes covers the whole run. Training stops at max_minutes*60 - --reserve-s, then the script
saves a resumable checkpoint (--ckpt-dir), evaluates greedy decoding, checks activations for fp16 range, converts to
fp16 and writes config.json, model.safetensors, spiece.model, metrics.json and README.md to --out. A checkpoint is also
written every --save-every-min minutes, so a run that is killed can be continued with --resume CKPT_DIR. The learning
rate follows the time budget: linear warmup for --warmup-steps, then linear decay to 10% at the end of the budget; a
resumed run continues the schedule it was started with.
"""

import argparse
import json
import os
import random
import re
import shutil
import sys
import time

import sentencepiece as spm
import torch
from transformers import T5Config, T5ForConditionalGeneration

T_START = time.time()
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
N_EXTRA_IDS = 100  # T5 convention: vocab = spm pieces + 100 <extra_id_*> (unused here, kept for tool compatibility)


def log(msg):
    print(f"[{time.time() - T_START:7.1f}s] {msg}", flush=True)


from train_data import (EOS, PAD, add_copy_examples, collate, encode_records,  # noqa: E402
                        length_grouped_batches, read_jsonl)


# ------------------------------------------------------------------------------------------------- target <-> fields

SCALAR_TAGS = {"name": "supplier_name", "addr": "supplier_address", "tel": "supplier_phone", "date": "receipt_date",
               "time": "purchase_time", "cur": "currency", "net": "net_amount", "tax": "total_tax_amount",
               "total": "total_amount"}
NUMERIC = {"net_amount", "total_tax_amount", "total_amount"}


def to_number(v):
    try:
        return float(str(v).replace(",", ""))
    except ValueError:
        return None


def parse_target_fallback(text):
    """Tolerant parser of the target format, used only if train/target_format.py is missing."""
    fields = {k: None for k in SCALAR_TAGS.values()}
    fields["line_items"] = []
    for part in text.split(" | "):
        tag, sep, val = part.partition(": ")
        tag, val = tag.strip(), val.strip()
        if not sep:
            continue
        if tag == "item":
            cols = [c.strip() for c in val.split(" ; ")] + [""] * 4
            fields["line_items"].append({"description": cols[0], "quantity": to_number(cols[1]),
                                         "unit_price": to_number(cols[2]), "amount": to_number(cols[3])})
        elif tag in SCALAR_TAGS:
            key = SCALAR_TAGS[tag]
            fields[key] = to_number(val) if key in NUMERIC else val
    return fields


try:
    from target_format import target_to_fields as parse_target  # same rules as the C++ parser
except ImportError:
    parse_target = parse_target_fallback


def same(key, a, b):
    if key in NUMERIC:
        a, b = to_number(a) if a is not None else None, to_number(b) if b is not None else None
        return (a is None and b is None) or (a is not None and b is not None and abs(a - b) < 0.005)
    norm = lambda s: None if s is None else re.sub(r"\s+", " ", str(s)).strip().upper()  # noqa: E731
    return norm(a) == norm(b)


# --------------------------------------------------------------------------------------------------------- evaluation

@torch.no_grad()
def generate(model, sp, examples, device, batch_size, max_new, dtype=None):
    model.eval()
    order = sorted(range(len(examples)), key=lambda i: len(examples[i][0]))
    results = [None] * len(examples)
    for b in range(0, len(order), batch_size):
        ids = order[b:b + batch_size]
        src, mask, _ = collate(examples, ids, device)
        ctx = torch.autocast(device.type, dtype=dtype) if dtype is not None else torch.autocast(device.type,
                                                                                                 enabled=False)
        with ctx:
            gen = model.generate(input_ids=src, attention_mask=mask, max_new_tokens=max_new, do_sample=False,
                                 num_beams=1)
        for r, i in enumerate(ids):
            toks = [t for t in gen[r].tolist() if 1 < t < sp.get_piece_size()]  # drop pad/eos/extra ids
            results[i] = sp.decode(toks)
    return results


def evaluate(model, sp, name, recs, examples, device, args, dtype=None):
    t0 = time.time()
    preds = generate(model, sp, examples, device, args.eval_batch, args.max_tgt_len, dtype)
    n = len(recs)
    exact = sum(p.strip() == r["target"].strip() for p, r in zip(preds, recs))
    per_field, n_field = {}, {}
    items_ok = 0
    for p, r in zip(preds, recs):
        got = parse_target(p)
        gold = parse_target(r["target"])  # both sides through the same normalisers
        for key in SCALAR_TAGS.values():
            if gold.get(key) is None and name.startswith("sroie"):
                continue  # SROIE labels only four fields; the rest is unknown, not absent
            n_field[key] = n_field.get(key, 0) + 1
            per_field[key] = per_field.get(key, 0) + same(key, got[key], gold.get(key))
        if not name.startswith("sroie"):
            gi = gold.get("line_items") or []
            items_ok += len(gi) == len(got["line_items"] or []) and all(
                same("", a["description"], b["description"]) and all(
                    same("total_amount", a[k], b[k]) for k in ("quantity", "unit_price", "amount"))
                for a, b in zip(gi, got["line_items"]))
    m = {"n": n, "exact_match": round(exact / max(n, 1), 4),
         "field_acc": {k: round(per_field[k] / n_field[k], 4) for k in per_field}}
    if not name.startswith("sroie"):
        m["line_items_all_correct"] = round(items_ok / max(n, 1), 4)
    log(f"eval {name}: {json.dumps(m)} ({time.time() - t0:.1f}s)")
    for p, r in list(zip(preds, recs))[:2]:
        log(f"  gold: {r['target'][:300]}")
        log(f"  pred: {p[:300]}")
    return m, preds


@torch.no_grad()
def max_activations(model, examples, device, n_batches=4, batch_size=16):
    """Largest |value| of FFN outputs and of the residual stream, in fp32, over a few batches (fp16 max is 65504)."""
    model.eval()
    stats = {"ffn_out": 0.0, "residual": 0.0, "attn_out": 0.0}
    hooks = []

    def hook(kind):
        def f(_mod, _inp, out):
            t = out[0] if isinstance(out, tuple) else out
            stats[kind] = max(stats[kind], float(t.detach().abs().max()))
        return f

    for name, mod in model.named_modules():
        cls = type(mod).__name__
        if cls in ("T5DenseGatedActDense", "T5DenseActDense"):
            hooks.append(mod.register_forward_hook(hook("ffn_out")))
        elif cls == "T5Block":
            hooks.append(mod.register_forward_hook(hook("residual")))
        elif cls == "T5Attention":
            hooks.append(mod.register_forward_hook(hook("attn_out")))
    idx = sorted(range(len(examples)), key=lambda i: -len(examples[i][0]))  # longest first: worst case
    with torch.autocast(device.type, enabled=False):
        for b in range(n_batches):
            ids = idx[b * batch_size:(b + 1) * batch_size]
            if not ids:
                break
            src, mask, lab = collate(examples, ids, device)
            model(input_ids=src, attention_mask=mask, labels=lab)
    for h in hooks:
        h.remove()
    return {k: round(v, 2) for k, v in stats.items()}


# ------------------------------------------------------------------------------------------------------- checkpoints

def save_ckpt(path, model, opt, state):
    tmp = path + ".tmp"
    os.makedirs(tmp, exist_ok=True)
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "state": state}, os.path.join(tmp, "ckpt.pt"))
    with open(os.path.join(tmp, "config.json"), "w") as f:
        f.write(model.config.to_json_string())
    if os.path.isdir(path):
        shutil.rmtree(path)
    os.replace(tmp, path)


def export(model, args, metrics, act, cfg_desc, n_params):
    """fp16 Hugging Face folder: config.json, model.safetensors, spiece.model, metrics.json, README.md."""
    os.makedirs(args.out, exist_ok=True)
    half = T5ForConditionalGeneration(model.config)
    half.load_state_dict(model.state_dict())
    half = half.half()
    half.save_pretrained(args.out)  # safetensors; tied weights stored once as shared.weight
    # The model was trained on plain SentencePiece ids (byte fallback, "\n" = <0x0A>), not on Hugging Face
    # T5Tokenizer ids (no byte fallback, newline = space): tell the runtime which one to use.
    cfg_path = os.path.join(args.out, "config.json")
    with open(cfg_path, encoding="utf-8") as f:
        cfg = json.load(f)
    cfg["receipt_engine"] = {"tokenizer": "sentencepiece"}
    with open(cfg_path, "w", encoding="utf-8") as f:
        json.dump(cfg, f, indent=2, sort_keys=True)
        f.write("\n")
    if os.path.abspath(args.spm) != os.path.abspath(os.path.join(args.out, "spiece.model")):
        shutil.copy(args.spm, os.path.join(args.out, "spiece.model"))
    with open(os.path.join(args.out, "metrics.json"), "w") as f:
        json.dump({"metrics": metrics, "max_abs_activation_fp32": act, "n_params": n_params}, f, indent=2)
        f.write("\n")
    write_model_card(args, metrics, act, cfg_desc, n_params)
    size = os.path.getsize(os.path.join(args.out, "model.safetensors"))
    log(f"exported {args.out} (model.safetensors {size / 1e6:.1f} MB)")
    return half


def write_model_card(args, metrics, act, cfg_desc, n_params):
    m = json.dumps(metrics, indent=2) if metrics else "(not measured yet)"
    peak = max(act.values()) if act else float("inf")
    fp16_note = ("these fit with a wide margin, no clamping needed." if peak < 6e3 else
                 "these fit, but with little margin; keep fp32 accumulation and the residual stream in fp32."
                 if peak < 6e4 else "these OVERFLOW float16; run the fp32 path or clamp like Hugging Face T5.")
    text = f"""# receipt-t5-small

A small T5 (v1.1 gated-GELU feed-forward, relative position buckets, trained from scratch) that reads the OCR text
of a shop receipt (one OCR box per line) and writes its fields in the target format of `docs/target-format.md`:
`name: ... | addr: ... | tel: ... | date: YYYY-MM-DD | time: HH:MM | cur: ISO | item: desc ; qty ; unit ; amount | ...
| net: n | tax: n | total: n`.

## Model

{cfg_desc}

Parameters: {n_params:,}. Weights: `model.safetensors` in float16 (trained in bf16 autocast with fp32 master
weights). Input and output embeddings are tied (`shared.weight`) and, as in the original T5, the decoder output is
scaled by d_model^-0.5 before the LM head. Tokenizer: `spiece.model`, SentencePiece unigram with byte fallback,
identity normalisation (no NFKC), split digits; ids pad 0, eos 1, unk 2, no bos; vocab_size = pieces + 100 extra ids
(unused). The input is the receipt text as is, including the newlines between OCR boxes (they encode as the byte
piece `<0x0A>`), followed by eos. Decoding starts from pad (id 0) and stops at eos. These are plain SentencePiece
ids, not Hugging Face `T5Tokenizer` ids (which drop byte fallback and treat the newline as a space), so
`config.json` carries `"receipt_engine": {{"tokenizer": "sentencepiece"}}` for the runtime.

Largest |activation| measured in fp32 on the longest validation inputs: {json.dumps(act)}. float16 tops out at
65504: {fp16_note}

## Data

- Synthetic receipts from `train/synth.py`: Japanese (convenience stores, supermarkets, drugstores, restaurants,
  electronics; 軽減税率 marks, 内税/外税, 登録番号, half-width katakana, era dates, discounts, OCR noise) and English
  (US, UK, Malaysian). The synthetic test set uses held-out layouts, chains and seeds (see `train/synth.py`).
- ICDAR-2019 SROIE task 3 train split (gold company, address, date, total).
- rds_silver: CORD, SROIE-train, Zenodo and ExpressExpense receipts labelled by a vision LLM (silver labels).
- Evaluation: SROIE validation (80 receipts, never trained on) and in-distribution synthetic receipts.

## Training

On a machine with an NVIDIA GPU, from the repository root, after `python3 train/make_data.py` and
`train/train_tokenizer.sh`:

    bash train/run_on_gpu.sh

which runs `{' '.join(args.argv)}`.

## Metrics

Greedy decoding, fp32 reference unless noted. `field_acc` compares normalised strings and numbers; for SROIE only the
four labelled fields count.

```
{m}
```
"""
    with open(os.path.join(args.out, "README.md"), "w", encoding="utf-8") as f:
        f.write(text)


# --------------------------------------------------------------------------------------------------------------- main

def build_config(args, vocab_size):
    return T5Config(
        vocab_size=vocab_size, d_model=args.d_model, d_kv=args.d_kv, d_ff=args.d_ff, num_layers=args.enc_layers,
        num_decoder_layers=args.dec_layers, num_heads=args.heads, relative_attention_num_buckets=32,
        relative_attention_max_distance=128, dropout_rate=0.05 if args.dropout is None else args.dropout,
        layer_norm_epsilon=1e-6,
        feed_forward_proj="gated-gelu", tie_word_embeddings=True, pad_token_id=PAD, eos_token_id=EOS,
        decoder_start_token_id=PAD, use_cache=True)


def main():
    ap = argparse.ArgumentParser(description="train the receipt T5 from scratch")
    ap.add_argument("--train", required=True, help="jsonl(.gz) with text and target")
    ap.add_argument("--val", action="append", default=[], help="jsonl for the final greedy eval (repeatable)")
    ap.add_argument("--spm", required=True)
    ap.add_argument("--out", required=True, help="Hugging Face model folder to write")
    ap.add_argument("--ckpt-dir", default=os.path.join(HERE, "out", "ckpt"))
    ap.add_argument("--resume", default=None, help="checkpoint folder to continue from")
    ap.add_argument("--init-from", default=None,
                    help="exported model folder whose weights start this run (fresh optimizer and schedule)")
    ap.add_argument("--max-minutes", type=float, default=11.0, help="wall budget of this run, eval and export included")
    ap.add_argument("--reserve-s", type=float, default=120.0, help="seconds kept for eval, checks and export")
    ap.add_argument("--max-steps", type=int, default=0, help="stop after this many steps (0 = time only)")
    ap.add_argument("--save-every-min", type=float, default=3.0)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--warmup-steps", type=int, default=300)
    ap.add_argument("--weight-decay", type=float, default=0.01)
    ap.add_argument("--max-src-len", type=int, default=512)
    ap.add_argument("--max-tgt-len", type=int, default=384)
    ap.add_argument("--d-model", type=int, default=384)
    ap.add_argument("--d-ff", type=int, default=1024)
    ap.add_argument("--d-kv", type=int, default=64)
    ap.add_argument("--heads", type=int, default=6)
    ap.add_argument("--enc-layers", type=int, default=6)
    ap.add_argument("--dec-layers", type=int, default=4)
    ap.add_argument("--dropout", type=float, default=None,
                    help="dropout rate (default 0.05 for a new model; a loaded model keeps its own unless given)")
    ap.add_argument("--copy-frac", type=float, default=0.0,
                    help="fraction of training receipts also used as a copy task: source = <copy> + text, target = "
                         "the text's first lines (teaches the decoder to copy from the source)")
    ap.add_argument("--schedule-minutes", type=float, default=0.0,
                    help="length of the learning-rate schedule in training minutes across resumed runs "
                         "(default: this run's budget)")
    ap.add_argument("--eval-n", type=int, default=200, help="examples per val file in the final eval (0 = skip)")
    ap.add_argument("--eval-batch", type=int, default=100)
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--limit-train", type=int, default=0, help="use only the first N training records (smoke tests)")
    ap.add_argument("--compile", action="store_true", help="torch.compile the model (untested default: off)")
    args = ap.parse_args()
    args.argv = ["python3"] + [a for a in sys.argv]

    # Data parallel across GPUs when started by torchrun (WORLD_SIZE > 1): every rank reads the same data and
    # batch list; rank r trains on batches r, r + W, ...; gradients are averaged by DistributedDataParallel.
    # Rank 0 alone logs, saves checkpoints, exports and evaluates.
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    if world > 1:
        import torch.distributed as dist
        local = int(os.environ.get("LOCAL_RANK", "0"))
        if torch.cuda.is_available():
            torch.cuda.set_device(local)
        dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    global log
    if rank != 0:
        log = lambda msg: None  # noqa: E731
    torch.manual_seed(args.seed)
    device = torch.device(f"cuda:{torch.cuda.current_device()}" if torch.cuda.is_available() else "cpu")
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
        log(f"device {torch.cuda.get_device_name(0)}, torch {torch.__version__}")
    else:
        log(f"device cpu (smoke test), torch {torch.__version__}")
    deadline = T_START + args.max_minutes * 60 - args.reserve_s

    sp = spm.SentencePieceProcessor(model_file=args.spm)
    vocab_size = sp.get_piece_size() + N_EXTRA_IDS
    assert sp.pad_id() == PAD and sp.eos_id() == EOS, "spiece.model must use T5 ids (pad 0, eos 1)"

    recs = read_jsonl(args.train)
    if args.limit_train:
        recs = recs[:args.limit_train]
    train, n_drop = encode_records(sp, recs, args.max_src_len, args.max_tgt_len, drop_long_targets=True)
    if args.copy_frac > 0:
        n_copy = add_copy_examples(train, sp, args, vocab_size, random.Random(args.seed + 7))
        log(f"copy task: {n_copy} extra examples (source prefixed with id {vocab_size - 1})")
    n_tok = sum(len(s) + len(t) for s, t in train)
    log(f"train: {len(train)} examples ({n_drop} dropped: target > {args.max_tgt_len} tokens), {n_tok / 1e6:.1f}M tokens")
    del recs
    if len(train) < args.batch_size:
        raise SystemExit(f"only {len(train)} training examples: not enough for one batch of {args.batch_size}")
    vals = []
    for path in args.val:
        vr = read_jsonl(path)
        random.Random(0).shuffle(vr)
        vr = vr[:args.eval_n]
        ve, _ = encode_records(sp, vr, args.max_src_len, args.max_tgt_len, drop_long_targets=False)
        name = os.path.basename(path).split(".")[0]
        vals.append(("sroie_" + name if all(r["id"].startswith("sroie") for r in vr) else name, vr, ve))

    state = {"step": 0, "elapsed_s": 0.0, "schedule_s": None, "epoch": 0, "seen": 0}
    if args.resume:
        ck = torch.load(os.path.join(args.resume, "ckpt.pt"), map_location="cpu", weights_only=False)
        config = T5Config.from_pretrained(args.resume)
        model = T5ForConditionalGeneration(config)
        model.load_state_dict(ck["model"])
        state.update(ck["state"])
        log(f"resumed from {args.resume}: step {state['step']}, {state['elapsed_s']:.0f}s trained")
    elif args.init_from:
        config = T5Config.from_pretrained(args.init_from)
        if args.dropout is not None:
            config.dropout_rate = args.dropout
        model = T5ForConditionalGeneration.from_pretrained(args.init_from, config=config).float()
        log(f"initialised from the exported model {args.init_from}")
    else:
        config = build_config(args, vocab_size)
        model = T5ForConditionalGeneration(config)
    assert config.vocab_size == vocab_size, "vocab_size must equal spm pieces + 100"
    model.to(device)
    n_params = sum(p.numel() for p in model.parameters())
    cfg_desc = (f"d_model {config.d_model}, d_ff {config.d_ff} (gated-GELU), d_kv {config.d_kv}, heads "
                f"{config.num_heads}, encoder layers {config.num_layers}, decoder layers {config.num_decoder_layers}, "
                f"vocab {config.vocab_size}, relative buckets 32 / max distance 128, dropout {config.dropout_rate}")
    log(f"model: {n_params / 1e6:.2f}M params; {cfg_desc}")

    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "embed" not in n and "shared" not in n]
    no_decay = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and "embed" not in n and "shared" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": args.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=args.lr, betas=(0.9, 0.98), eps=1e-8,
                            fused=device.type == "cuda")
    if args.resume:
        opt.load_state_dict(ck["opt"])
        del ck
    train_budget = max(0.0, deadline - time.time())
    if args.schedule_minutes > 0:
        state["schedule_s"] = args.schedule_minutes * 60
    elif state["schedule_s"] is None or state["elapsed_s"] >= state["schedule_s"]:
        state["schedule_s"] = state["elapsed_s"] + train_budget  # fresh run, or extending a finished one
    fwd_model = model
    if world > 1:
        from torch.nn.parallel import DistributedDataParallel
        fwd_model = DistributedDataParallel(model, device_ids=[device.index] if device.type == "cuda" else None)
    fwd_model = torch.compile(fwd_model) if args.compile else fwd_model
    stop_flag = torch.zeros(1, device=device)

    def lr_at(step, elapsed):
        if step < args.warmup_steps:
            return args.lr * (step + 1) / args.warmup_steps
        frac = min(1.0, elapsed / max(state["schedule_s"], 1.0))
        return args.lr * (1.0 - 0.9 * frac)

    log(f"training for up to {train_budget:.0f}s this run (schedule {state['schedule_s']:.0f}s), batch "
        f"{args.batch_size}, lr {args.lr}")
    model.train()
    t_run0 = time.time()
    elapsed0 = state["elapsed_s"]
    t_save = time.time()
    t_log, tok_log, loss_sum, loss_n = time.time(), 0, 0.0, 0
    stop = False
    while not stop and time.time() < deadline:
        batches = length_grouped_batches(train, args.batch_size, random.Random(args.seed * 1000 + state["epoch"]))
        start = state["seen"] if state["seen"] < len(batches) else 0
        n_full = len(batches) - len(batches) % world  # every rank takes the same number of steps
        for bi in range(start, n_full, world):
            now = time.time()
            elapsed = elapsed0 + (now - t_run0)
            want_stop = now >= deadline or (args.max_steps and state["step"] >= args.max_steps)
            if world > 1:  # rank 0's clock decides, so no rank waits in an all-reduce the others never join
                stop_flag.fill_(1.0 if (want_stop and rank == 0) else 0.0)
                torch.distributed.broadcast(stop_flag, 0)
                want_stop = bool(stop_flag.item())
            if want_stop:
                stop = True
                break
            lr = lr_at(state["step"], elapsed)
            for g in opt.param_groups:
                g["lr"] = lr
            src, mask, lab = collate(train, batches[bi + rank], device)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
                loss = fwd_model(input_ids=src, attention_mask=mask, labels=lab).loss
            opt.zero_grad(set_to_none=True)
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            state["step"] += 1
            state["seen"] = bi + world
            loss_sum += float(loss.detach()) if state["step"] % 10 == 0 or device.type != "cuda" else 0.0
            loss_n += 1 if state["step"] % 10 == 0 or device.type != "cuda" else 0
            tok_log += int(mask.sum()) + int((lab != -100).sum()) if state["step"] % 10 == 0 else 0
            if state["step"] % args.log_every == 0:
                dt = time.time() - t_log
                log(f"step {state['step']} epoch {state['epoch']} loss {loss_sum / max(loss_n, 1):.4f} lr {lr:.2e} "
                    f"gnorm {float(gnorm):.2f} ~{tok_log * 10 * world / dt / 1e3:.0f}k tok/s "
                    f"{args.log_every * args.batch_size * world / dt:.0f} ex/s")
                t_log, tok_log, loss_sum, loss_n = time.time(), 0, 0.0, 0
            if rank == 0 and time.time() - t_save > args.save_every_min * 60:
                state["elapsed_s"] = elapsed0 + (time.time() - t_run0)
                save_ckpt(args.ckpt_dir, model, opt, state)
                t_save = time.time()
                log(f"checkpoint {args.ckpt_dir} at step {state['step']}")
        else:
            state["epoch"] += 1
            state["seen"] = 0
    state["elapsed_s"] = elapsed0 + (time.time() - t_run0)
    if world > 1:
        torch.distributed.barrier()
        torch.distributed.destroy_process_group()
        if rank != 0:
            return
    save_ckpt(args.ckpt_dir, model, opt, state)
    log(f"stopped at step {state['step']} (epoch {state['epoch']}, {state['elapsed_s']:.0f}s trained); "
        f"checkpoint {args.ckpt_dir}")
    del opt

    # ---- activations, fp16 export, eval
    all_val = [e for _, _, ve in vals for e in ve] or train[:64]
    act = max_activations(model, all_val, device)
    log(f"max |activation| fp32: {act}" + ("  WARNING: exceeds fp16 range" if max(act.values()) > 6e4 else ""))
    metrics = {"steps": state["step"], "train_seconds": round(state["elapsed_s"]), "train_examples": len(train),
               "epochs": round(state["epoch"] + state["seen"] / max(1, len(train) // args.batch_size), 2)}
    half = export(model, args, metrics, act, cfg_desc, n_params)
    for name, vr, ve in vals:
        if time.time() > T_START + args.max_minutes * 60 - 5:
            log(f"skipping eval {name}: over budget")
            continue
        m, preds = evaluate(model, sp, name, vr, ve, device, args)
        metrics[name] = m
        if device.type == "cuda" and name == vals[0][0]:
            half.to(device)
            m16, p16 = evaluate(half, sp, name + "_fp16", vr, ve, device, args)
            m16["same_output_as_fp32"] = round(sum(a == b for a, b in zip(preds, p16)) / max(len(preds), 1), 4)
            metrics[name + "_fp16"] = m16
            half.cpu()
    with open(os.path.join(args.out, "metrics.json"), "w") as f:
        json.dump({"metrics": metrics, "max_abs_activation_fp32": act, "n_params": n_params}, f, indent=2)
        f.write("\n")
    write_model_card(args, metrics, act, cfg_desc, n_params)
    log("FINAL METRICS " + json.dumps(metrics))
    log(f"done in {time.time() - T_START:.0f}s")


if __name__ == "__main__":
    main()

"""Training data for train.py: reading jsonl(.gz), SentencePiece encoding, the copy task, length-grouped batches
and padding to tensors. Token ids follow T5: pad 0, eos 1."""

import gzip
import json

import numpy as np
import torch

PAD, EOS = 0, 1


def read_jsonl(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def encode_records(sp, recs, max_src, max_tgt, drop_long_targets):
    """-> list of (src_ids, tgt_ids). Sources are truncated (EOS kept); targets that do not fit are dropped in
    training (a truncated target would teach the model never to stop) and truncated for evaluation."""
    srcs = sp.encode([r["text"] for r in recs])
    tgts = sp.encode([r["target"] for r in recs])
    out, n_drop = [], 0
    for s, t in zip(srcs, tgts):
        s = s[: max_src - 1] + [EOS]
        if len(t) + 1 > max_tgt:
            if drop_long_targets:
                n_drop += 1
                continue
            t = t[: max_tgt - 1]
        out.append((s, t + [EOS]))
    return out, n_drop


def add_copy_examples(train, sp, args, vocab_size, rng, max_tgt=160):
    """Appends copy-task examples for a random --copy-frac of `train`: source = [copy id] + source, target = the
    source's first whole lines (at most max_tgt tokens) + EOS. The copy id is the last <extra_id> (vocab_size - 1),
    which the extraction task never uses, so the two tasks are told apart by the first source token."""
    nl = sp.piece_to_id("<0x0A>")
    copy_id = vocab_size - 1
    extra = []
    for s, _ in train:
        if rng.random() >= args.copy_frac:
            continue
        body = s[:-1]  # without EOS
        cut = min(len(body), max_tgt)
        if cut < len(body):
            nls = [k for k in range(cut) if body[k] == nl]
            cut = nls[-1] if nls else cut
        if cut < 8:
            continue
        extra.append(([copy_id] + body[: args.max_src_len - 2] + [EOS], body[:cut] + [EOS]))
    train.extend(extra)
    return len(extra)


def length_grouped_batches(examples, batch_size, rng, group=64):
    """Shuffle, then sort inside groups of `group` batches by source+target length so a batch pads little."""
    idx = list(range(len(examples)))
    rng.shuffle(idx)
    batches = []
    span = batch_size * group
    for g in range(0, len(idx), span):
        chunk = sorted(idx[g:g + span], key=lambda i: (len(examples[i][0]), len(examples[i][1])))
        batches += [chunk[b:b + batch_size] for b in range(0, len(chunk), batch_size)]
    rng.shuffle(batches)
    return batches


def collate(examples, ids, device, multiple=8):
    """-> input_ids [B, S], attention_mask [B, S], labels [B, T] (-100 on padding); S, T padded to `multiple`."""
    s_len = max(len(examples[i][0]) for i in ids)
    t_len = max(len(examples[i][1]) for i in ids)
    s_len, t_len = -(-s_len // multiple) * multiple, -(-t_len // multiple) * multiple
    src = np.full((len(ids), s_len), PAD, dtype=np.int64)
    lab = np.full((len(ids), t_len), -100, dtype=np.int64)
    for r, i in enumerate(ids):
        s, t = examples[i]
        src[r, :len(s)] = s
        lab[r, :len(t)] = t
    src = torch.from_numpy(src).to(device, non_blocking=True)
    lab = torch.from_numpy(lab).to(device, non_blocking=True)
    return src, (src != PAD).long(), lab

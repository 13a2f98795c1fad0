#!/usr/bin/env python3
"""Creates a t5-small shaped checkpoint (v1.0 config) with random weights for the CPU benchmark.

Writes OUT/config.json, OUT/model.safetensors (f32) and OUT/spiece.model (copied from the tiny golden model: the
ids the benchmark feeds are random, so only the config's vocab_size of 32128 matters). The seed is fixed, so the
same weights come out on every machine. Skips the work when OUT already holds a checkpoint of this shape.

Usage: make_random_t5.py OUT [--seed 0]
"""

import argparse
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SPIECE = os.path.join(REPO, "tests", "golden", "t5-tiny-v10", "spiece.model")

# google-t5/t5-small (v1.0): relu FFN, tied embeddings, 6 + 6 layers.
T5_SMALL = dict(
    vocab_size=32128,
    d_model=512,
    d_kv=64,
    d_ff=2048,
    num_layers=6,
    num_decoder_layers=6,
    num_heads=8,
    relative_attention_num_buckets=32,
    relative_attention_max_distance=128,
    dropout_rate=0.0,
    layer_norm_epsilon=1e-6,
    initializer_factor=1.0,
    feed_forward_proj="relu",
    is_encoder_decoder=True,
    tie_word_embeddings=True,
    pad_token_id=0,
    eos_token_id=1,
    decoder_start_token_id=0,
)


def up_to_date(out, seed):
    try:
        with open(os.path.join(out, "bench_seed.json")) as f:
            meta = json.load(f)
        return meta == {"seed": seed, "config": T5_SMALL} and os.path.exists(os.path.join(out, "model.safetensors"))
    except (OSError, ValueError):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if up_to_date(args.out, args.seed):
        print(f"{args.out}: random t5-small already there")
        return
    import torch
    from transformers import T5Config, T5ForConditionalGeneration

    torch.manual_seed(args.seed)
    model = T5ForConditionalGeneration(T5Config(**T5_SMALL)).eval()
    os.makedirs(args.out, exist_ok=True)
    model.save_pretrained(args.out, safe_serialization=True)
    shutil.copyfile(SPIECE, os.path.join(args.out, "spiece.model"))
    with open(os.path.join(args.out, "bench_seed.json"), "w") as f:
        json.dump({"seed": args.seed, "config": T5_SMALL}, f)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"{args.out}: random t5-small, {n_params / 1e6:.1f} M parameters, seed {args.seed}")


if __name__ == "__main__":
    sys.exit(main())

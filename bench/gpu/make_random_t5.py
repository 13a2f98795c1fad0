#!/usr/bin/env python3
"""Creates t5-small and t5-base shaped T5 v1.0 checkpoints with random weights (fixed seed) for the GPU benchmark.

Writes OUT/<name>/{config.json, model.safetensors, spiece.model} with transformers' save_pretrained (f32). The
ids the benchmark feeds are random, so spiece.model is copied from the tiny golden model; only vocab_size matters.
Skips a model whose folder already holds a checkpoint of the same config. Needs torch + transformers, no internet.

Usage: make_random_t5.py OUT [--models t5-small,t5-base] [--seed 0]
"""

import argparse
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SPIECE = os.path.join(REPO, "tests", "golden", "t5-tiny-v10", "spiece.model")

COMMON = dict(vocab_size=32128, d_kv=64, relative_attention_num_buckets=32, relative_attention_max_distance=128,
              dropout_rate=0.0, layer_norm_epsilon=1e-6, initializer_factor=1.0, feed_forward_proj="relu",
              is_encoder_decoder=True, tie_word_embeddings=True, pad_token_id=0, eos_token_id=1,
              decoder_start_token_id=0)
# google-t5/t5-small and google-t5/t5-base shapes (v1.0: relu FFN, tied embeddings).
SHAPES = {
    "t5-small": dict(d_model=512, d_ff=2048, num_layers=6, num_decoder_layers=6, num_heads=8),
    "t5-base": dict(d_model=768, d_ff=3072, num_layers=12, num_decoder_layers=12, num_heads=12),
}


def make(out_dir, name, seed):
    import torch
    from transformers import T5Config, T5ForConditionalGeneration

    cfg = dict(COMMON, **SHAPES[name])
    path = os.path.join(out_dir, name)
    stamp = os.path.join(path, "bench_seed.json")
    try:
        with open(stamp) as f:
            if json.load(f) == {"seed": seed, "config": cfg} and os.path.exists(os.path.join(path, "model.safetensors")):
                print(f"{path}: up to date")
                return
    except (OSError, ValueError):
        pass
    torch.manual_seed(seed)
    model = T5ForConditionalGeneration(T5Config(**cfg)).eval()
    model.save_pretrained(path, safe_serialization=True)
    shutil.copy(SPIECE, os.path.join(path, "spiece.model"))
    with open(stamp, "w") as f:
        json.dump({"seed": seed, "config": cfg}, f)
    print(f"{path}: written ({sum(p.numel() for p in model.parameters()) / 1e6:.1f} M parameters)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--models", default="t5-small,t5-base")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.models.split(","):
        make(args.out, name, args.seed)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Times the peer engines on the CPU benchmark's inputs and prints one JSON object (one configuration per process,
so the peak RSS belongs to that configuration alone).

  bench_peers.py run --engine hf|ct2-fp32|ct2-int8 --model DIR --inputs ids.json --batch B --threads T \
                     [--new-tokens 128] [--warmup 1] [--runs 5] [--ct2-dir DIR]
  bench_peers.py convert --model DIR --out DIR --quantization float32|int8
  bench_peers.py versions

hf:        transformers T5ForConditionalGeneration, fp32, eager attention, torch.set_num_threads(T),
           generate(min_new_tokens = max_new_tokens = N, num_beams=1, do_sample=False).
ct2-*:     ctranslate2.Translator(intra_threads=T, inter_threads=1), translate_batch(beam_size=1,
           min_decoding_length = max_decoding_length = N). CTranslate2 counts the decoding length in generated target
           tokens after the decoder start token, EOS included when one is produced; with min = max = N, EOS is never
           allowed, so every hypothesis holds exactly N non-EOS tokens (checked below, like the other engines).
"""

import argparse
import json
import os
import resource
import statistics
import sys
import time

MB = 1024.0 * 1024.0


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: kilobytes


def current_rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def kv_cache_mb(config, batch, src_len, new_tokens):
    """Decoder self-attention K/V for every position plus the cross-attention K/V of the source, fp32."""
    layers = config["num_decoder_layers"]
    hk = config["num_heads"] * config["d_kv"]
    self_kv = 2.0 * layers * batch * new_tokens * hk * 4 / MB
    cross_kv = 2.0 * layers * batch * src_len * hk * 4 / MB
    return self_kv, cross_kv


def safetensors_numel(model_dir):
    # Parses the header directly: 8-byte little-endian length, then JSON {name: {dtype, shape, offsets}}.
    path = os.path.join(model_dir, "model.safetensors")
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
    total = 0
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        count = 1
        for d in meta["shape"]:
            count *= d
        total += count
    return total


def versions():
    out = {"python": sys.version.split()[0]}
    for mod in ("torch", "transformers", "ctranslate2", "numpy"):
        try:
            out[mod] = __import__(mod).__version__
        except Exception as e:  # missing or broken: recorded, never fatal
            out[mod] = None
            out[mod + "_error"] = f"{type(e).__name__}: {e}"[:200]
    return out


def convert(args):
    """Converts the Hugging Face checkpoint for CTranslate2 and makes the vocabulary unique.

    The checkpoint's spiece.model is a small stand-in (the benchmark feeds random ids), so the converter pads the
    vocabulary to vocab_size with repeated <extra_id_*> names. Tokens are CTranslate2's interface, so each id needs
    its own name: repeats are renamed <bench_id_N>. Names never reach the math.
    """
    import ctranslate2

    quant = None if args.quantization == "float32" else args.quantization
    conv = ctranslate2.converters.TransformersConverter(args.model)
    conv.convert(args.out, quantization=quant, force=True)
    path = os.path.join(args.out, "shared_vocabulary.json")
    with open(path) as f:
        vocab = json.load(f)
    seen = set()
    for i, tok in enumerate(vocab):
        if tok in seen:
            vocab[i] = f"<bench_id_{i}>"
        seen.add(vocab[i])
    with open(path, "w") as f:
        json.dump(vocab, f)
    print(f"{args.out}: CTranslate2 {args.quantization}, {len(vocab)} tokens")


def run_hf(args, inputs, config):
    import torch
    import transformers

    torch.set_num_threads(args.threads)
    rss_base = current_rss_mb()
    model = transformers.T5ForConditionalGeneration.from_pretrained(
        args.model, dtype=torch.float32, attn_implementation="eager"
    ).eval()
    rss_loaded = current_rss_mb()
    ids = torch.tensor(inputs, dtype=torch.long)
    mask = torch.ones_like(ids)
    eos = config["eos_token_id"]

    def once():
        with torch.inference_mode():
            out = model.generate(
                input_ids=ids,
                attention_mask=mask,
                min_new_tokens=args.new_tokens,
                max_new_tokens=args.new_tokens,
                num_beams=1,
                do_sample=False,
            )
        gen = out[:, 1:].tolist()  # drop the decoder start token
        return [len(g) if eos not in g else g.index(eos) + 1 for g in gen], gen

    extra = {"torch_threads": torch.get_num_threads(), "attn_implementation": "eager"}
    return once, rss_base, rss_loaded, extra


def run_ct2(args, inputs, config):
    import ctranslate2

    with open(os.path.join(args.ct2_dir, "shared_vocabulary.json")) as f:
        vocab = json.load(f)
    index = {t: i for i, t in enumerate(vocab)}
    compute_type = "int8" if args.engine == "ct2-int8" else "float32"
    rss_base = current_rss_mb()
    tr = ctranslate2.Translator(
        args.ct2_dir, device="cpu", compute_type=compute_type, intra_threads=args.threads, inter_threads=1
    )
    rss_loaded = current_rss_mb()
    source = [[vocab[i] for i in seq] for seq in inputs]
    eos = config["eos_token_id"]

    def once():
        res = tr.translate_batch(
            source,
            beam_size=1,
            min_decoding_length=args.new_tokens,
            max_decoding_length=args.new_tokens,
            max_input_length=0,
            return_end_token=True,  # count an EOS if one were produced
        )
        gen = [[index[t] for t in r.hypotheses[0]] for r in res]
        return [len(g) if eos not in g else g.index(eos) + 1 for g in gen], gen

    extra = {"compute_type": tr.compute_type, "intra_threads": args.threads, "inter_threads": 1}
    return once, rss_base, rss_loaded, extra


def run(args):
    with open(args.inputs) as f:
        inputs = json.load(f)[: args.batch]
    if len(inputs) < args.batch:
        sys.exit(f"{args.inputs}: fewer than {args.batch} sequences")
    with open(os.path.join(args.model, "config.json")) as f:
        config = json.load(f)
    maker = run_hf if args.engine == "hf" else run_ct2
    once, rss_base, rss_loaded, extra = maker(args, inputs, config)

    times, lengths, gen = [], [], None
    for r in range(args.warmup + args.runs):
        t0 = time.perf_counter()
        n, gen = once()
        ms = (time.perf_counter() - t0) * 1000.0
        lengths += n
        if r >= args.warmup:
            times.append(ms)
    src_len = len(inputs[0])
    self_kv, cross_kv = kv_cache_mb(config, args.batch, src_len, args.new_tokens)
    t_min, t_med = min(times), statistics.median(times)
    out = {
        "engine": args.engine,
        "precision": "int8" if args.engine == "ct2-int8" else "fp32",
        "batch": args.batch,
        "threads": args.threads,
        "input_len": src_len,
        "new_tokens": args.new_tokens,
        "generated_tokens_min": min(lengths),
        "generated_tokens_max": max(lengths),
        "exact_new_tokens": min(lengths) == max(lengths) == args.new_tokens,
        "warmup": args.warmup,
        "runs_ms": times,
        "batch_ms_min": t_min,
        "batch_ms_median": t_med,
        "ms_per_receipt": t_min / args.batch,
        "ms_per_receipt_median": t_med / args.batch,
        "tokens_per_s": args.batch * args.new_tokens / (t_min / 1000.0),
        "peak_rss_mb": peak_rss_mb(),
        "rss_before_load_mb": rss_base,
        "rss_after_load_mb": rss_loaded,
        "weights_mb": safetensors_numel(args.model) * 4 / MB,
        "kv_cache_mb": self_kv + cross_kv,
        "self_kv_mb": self_kv,
        "cross_kv_mb": cross_kv,
        "first_ids": gen[0][:16],
    }
    out.update(extra)
    print(json.dumps(out))
    return 0 if out["exact_new_tokens"] else 3


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--engine", choices=["hf", "ct2-fp32", "ct2-int8"], required=True)
    r.add_argument("--model", required=True, help="Hugging Face checkpoint folder")
    r.add_argument("--ct2-dir", help="converted CTranslate2 folder (ct2-* engines)")
    r.add_argument("--inputs", required=True, help="JSON [[ids]] written by bench_cpu --dump-inputs")
    r.add_argument("--batch", type=int, default=1)
    r.add_argument("--threads", type=int, default=os.cpu_count())
    r.add_argument("--new-tokens", type=int, default=128)
    r.add_argument("--warmup", type=int, default=1)
    r.add_argument("--runs", type=int, default=5)
    c = sub.add_parser("convert")
    c.add_argument("--model", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--quantization", choices=["float32", "int8"], default="float32")
    sub.add_parser("versions")
    args = ap.parse_args()
    if args.cmd == "versions":
        print(json.dumps(versions()))
        return 0
    if args.cmd == "convert":
        convert(args)
        return 0
    if args.engine != "hf" and not args.ct2_dir:
        ap.error("--ct2-dir is required for the ct2 engines")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())

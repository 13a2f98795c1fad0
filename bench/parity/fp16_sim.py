"""How many greedy outputs does fp16 storage alone change? A numerical experiment behind the CPU-vs-CUDA parity
figures (docs/benchmarks.md, "Why fp16 parity stops near 94-99%").

The CUDA engine computes in f32 (GEMM accumulation, softmax, RMSNorm, residual stream) but stores some
activations in fp16 between kernels. This script runs a Hugging Face T5 in fp32 on CPU and rounds exactly those
activations to fp16 and back with forward hooks, then counts the receipts whose greedy tokens differ from plain
fp32. Categories (each can be left out to see its share):
  norm  RMSNorm outputs, i.e. the inputs of every q/k/v, FFN and lm_head GEMM (fp16 GEMM operands)
  q k v attention projections (self and cross; cross k/v come from the fp16 encoder output)
  ctx   attention context, the input of the output projection
  h     FFN wi / wi_0 / wi_1 outputs
  hg    the gated activation, the input of wo
The output projections and wo add into the fp32 residual stream and are not rounded, as in the engine.

  python3 bench/parity/fp16_sim.py --model models/receipt-t5-small --data val.jsonl --variants all,-norm
prints one line per variant and writes --out (JSON). Needs torch, transformers, sentencepiece (bench/parity/run.sh
makes a virtualenv with them). Inputs are SentencePiece ids plus EOS, cut to --max-input-tokens like the engine.
"""
import argparse
import json
import time

import sentencepiece as spm
import torch
from transformers import T5ForConditionalGeneration

ALL = ("norm", "q", "k", "v", "ctx", "h", "hg")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="models/receipt-t5-small")
    ap.add_argument("--data", required=True, help='jsonl with a "text" per line')
    ap.add_argument("--limit", type=int, default=0, help="first N receipts (0 = all)")
    ap.add_argument("--variants", default="all", help='comma list: "all", "-cat+cat" (all but), "cat+cat" (only)')
    ap.add_argument("--max-input-tokens", type=int, default=512)
    ap.add_argument("--max-new-tokens", type=int, default=512)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    if a.threads:
        torch.set_num_threads(a.threads)

    sp = spm.SentencePieceProcessor(model_file=a.model + "/spiece.model")
    texts = [json.loads(l)["text"] for l in open(a.data, encoding="utf-8") if l.strip()]
    if a.limit:
        texts = texts[:a.limit]
    ids = [sp.encode(t)[:a.max_input_tokens - 1] + [1] for t in texts]
    model = T5ForConditionalGeneration.from_pretrained(a.model, dtype=torch.float32).eval()

    active = set()
    rnd = lambda t: t.half().float()

    def out_hook(cat):
        return lambda mod, inp, out: rnd(out) if cat in active else out

    def in_hook(cat):
        return lambda mod, inp: ((rnd(inp[0]),) + tuple(inp[1:])) if cat in active else None

    for name, mod in model.named_modules():
        last = name.split(".")[-1]
        if type(mod).__name__ == "T5LayerNorm":
            mod.register_forward_hook(out_hook("norm"))
        elif last in ("q", "k", "v"):
            mod.register_forward_hook(out_hook(last))
        elif last == "o":
            mod.register_forward_pre_hook(in_hook("ctx"))
        elif last in ("wi", "wi_0", "wi_1"):
            mod.register_forward_hook(out_hook("h"))
        elif last == "wo":
            mod.register_forward_pre_hook(in_hook("hg"))

    def generate(cats):
        active.clear()
        active.update(cats)
        outs = []
        with torch.no_grad():
            for i in range(0, len(ids), a.batch):
                b = ids[i:i + a.batch]
                n = max(map(len, b))
                x = torch.tensor([s + [0] * (n - len(s)) for s in b])
                m = torch.tensor([[1] * len(s) + [0] * (n - len(s)) for s in b])
                g = model.generate(input_ids=x, attention_mask=m, max_new_tokens=a.max_new_tokens, do_sample=False,
                                   num_beams=1)
                outs += [[t for t in r.tolist()[1:] if t != 0] for r in g]
        return outs

    t0 = time.time()
    ref = generate(set())
    print(f"fp32 reference: {len(ref)} receipts, {time.time() - t0:.0f} s", flush=True)
    report = {"model": a.model, "data": a.data, "n": len(ref), "variants": []}
    for v in a.variants.split(","):
        if v == "all":
            cats = set(ALL)
        elif v.startswith("-"):
            cats = set(ALL) - set(v[1:].split("+"))
        else:
            cats = set(v.split("+"))
        t0 = time.time()
        got = generate(cats)
        diff = sum(x != y for x, y in zip(ref, got))
        print(f"{v:12s} rounded {'+'.join(sorted(cats)) or 'nothing':28s} differ {diff}/{len(ref)} "
              f"({100.0 * (len(ref) - diff) / max(1, len(ref)):.2f}% identical, {time.time() - t0:.0f} s)", flush=True)
        report["variants"].append({"variant": v, "rounded": sorted(cats), "differ": diff, "n": len(ref)})
    if a.out:
        with open(a.out, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()

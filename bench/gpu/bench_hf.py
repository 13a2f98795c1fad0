#!/usr/bin/env python3
"""Times Hugging Face transformers generate() (eager, no torch.compile) on a T5 folder, as JSON.

Same workload as bench_gpu: random sources of --input-tokens ids (EOS last), greedy, exactly --new-tokens new
tokens (min_new_tokens = max_new_tokens), batch sizes 1, 8, 64, dtypes fp32 and fp16. One warm-up call per
setting, then --iters timed calls (torch.cuda.synchronize around each); reports the median.

Usage: bench_hf.py --model DIR --out FILE [--dtypes fp32,fp16] [--batches 1,8,64] [--iters 3]
"""

import argparse
import datetime
import json
import statistics
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--dtypes", default="fp32,fp16")
    ap.add_argument("--batches", default="1,8,64")
    ap.add_argument("--input-tokens", type=int, default=384)
    ap.add_argument("--new-tokens", type=int, default=128)
    ap.add_argument("--iters", type=int, default=3)
    args = ap.parse_args()

    import torch
    import transformers
    from transformers import T5ForConditionalGeneration

    dev = torch.device("cuda")
    report = {"benchmark": "transformers generate (eager)", "date": datetime.datetime.utcnow().isoformat() + "Z",
              "model": args.model, "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
              "transformers": transformers.__version__, "input_tokens": args.input_tokens,
              "new_tokens": args.new_tokens, "results": []}
    for dtype_name in args.dtypes.split(","):
        dtype = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[dtype_name]
        model = T5ForConditionalGeneration.from_pretrained(args.model, dtype=dtype).to(dev).eval()
        vocab = model.config.vocab_size
        for batch in [int(b) for b in args.batches.split(",")]:
            g = torch.Generator().manual_seed(1234)
            ids = torch.randint(3, vocab, (batch, args.input_tokens), generator=g)
            ids[:, -1] = model.config.eos_token_id
            ids = ids.to(dev)
            mask = torch.ones_like(ids)
            kw = dict(max_new_tokens=args.new_tokens, min_new_tokens=args.new_tokens, num_beams=1, do_sample=False)
            torch.cuda.reset_peak_memory_stats()
            with torch.inference_mode():
                out = model.generate(input_ids=ids, attention_mask=mask, **kw)  # warm-up
                times = []
                for _ in range(args.iters):
                    torch.cuda.synchronize()
                    t0 = time.perf_counter()
                    model.generate(input_ids=ids, attention_mask=mask, **kw)
                    torch.cuda.synchronize()
                    times.append((time.perf_counter() - t0) * 1000.0)
            med = statistics.median(times)
            row = {"dtype": dtype_name, "batch": batch, "ms_per_batch_median": med, "ms_per_receipt": med / batch,
                   "generated_tokens": int(out.shape[1] - 1),
                   "peak_device_mib": torch.cuda.max_memory_allocated() / 2**20}
            print(json.dumps(row), flush=True)
            report["results"].append(row)
        del model
        torch.cuda.empty_cache()
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()

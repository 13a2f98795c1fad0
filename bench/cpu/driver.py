#!/usr/bin/env python3
"""Runs every engine x batch configuration of the CPU benchmark, each in its own process, and writes the results
JSON (machine, versions, per-configuration figures, ratios to Hugging Face, targets). Called by run.sh.

Rounds interleave the engines (round 1: ours b1, hf b1, ct2 b1, ..., then b8; round 2: the same again), so a burst
of load from other processes hits every engine alike; per configuration the fastest run is reported, with the
median of all runs beside it.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def physical_cores():
    try:
        pairs = set()
        phys = core = None
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("physical id"):
                    phys = line.split(":")[1].strip()
                elif line.startswith("core id"):
                    core = line.split(":")[1].strip()
                    pairs.add((phys, core))
        return len(pairs) or None
    except OSError:
        return None


def loadavg():
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def run_one(cmd, log):
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    line = next((l for l in reversed(p.stdout.splitlines()) if l.startswith("{")), None)
    log.write(f"$ {' '.join(cmd)}\n{p.stderr[-4000:]}{p.stdout}\n")
    log.flush()
    if line is None:
        return {"error": f"exit {p.returncode}: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ''}"}
    out = json.loads(line)
    out["process_s"] = round(time.time() - t0, 1)
    if p.returncode != 0:
        out["error"] = f"exit {p.returncode}"
    return out


def aggregate(samples):
    ok = [s for s in samples if "error" not in s]
    if not ok:
        return {"error": samples[-1].get("error", "no result") if samples else "not run"}
    runs = [t for s in ok for t in s["runs_ms"]]
    b = ok[0]["batch"]
    n = ok[0]["new_tokens"]
    best = min(runs)
    med = statistics.median(runs)
    first = ok[0]
    out = {
        "ms_per_receipt": round(best / b, 1),
        "ms_per_receipt_median": round(med / b, 1),
        "tokens_per_s": round(b * n / (best / 1000.0), 1),
        "tokens_per_s_median": round(b * n / (med / 1000.0), 1),
        "batch_ms_runs": [round(t, 1) for t in runs],
        "peak_rss_mb": round(max(s["peak_rss_mb"] for s in ok), 1),
        "weights_mb": round(first["weights_mb"], 1),
        "kv_cache_mb": round(first["kv_cache_mb"], 1),
        "generated_tokens_per_sequence": [min(s["generated_tokens_min"] for s in ok),
                                          max(s["generated_tokens_max"] for s in ok)],
        "exact_new_tokens": all(s["exact_new_tokens"] for s in ok),
        "first_ids_seq0": first.get("first_ids"),
    }
    for key in ("rss_before_load_mb", "rss_after_load_mb"):
        if key in first:
            out[key] = round(min(s[key] for s in ok), 1)
    if "encoder_ms" in first:
        enc = min(s["encoder_ms"] for s in ok)
        out["encoder_ms"] = round(enc, 1)
        out["decoder_ms_per_step"] = round((best - enc) / n, 2)
    for key in ("compute_type", "torch_threads", "describe"):
        if key in first:
            out[key] = first[key]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--bench-bin", required=True)
    ap.add_argument("--python", required=True, help="interpreter with torch / transformers (/ ctranslate2)")
    ap.add_argument("--model", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--ct2-fp32")
    ap.add_argument("--ct2-int8")
    ap.add_argument("--engines", default="receipt,hf,ct2-fp32,ct2-int8")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--new-tokens", type=int, default=128)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--runs-b1", type=int, default=3)
    ap.add_argument("--runs-b8", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--warmup-b8", type=int, default=0, help="warmup calls for batches > 1 (long calls)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--note", action="append", default=[])
    args = ap.parse_args()

    engines = [e for e in args.engines.split(",") if e]
    batches = [int(b) for b in args.batches.split(",")]
    notes = list(args.note)
    for e, d in (("ct2-fp32", args.ct2_fp32), ("ct2-int8", args.ct2_int8)):
        if e in engines and not d:
            engines.remove(e)
            notes.append(f"{e} skipped: ctranslate2 is not installed or the conversion failed")

    versions = json.loads(subprocess.run([args.python, os.path.join(HERE, "bench_peers.py"), "versions"],
                                         capture_output=True, text=True).stdout or "{}")
    samples = {(e, b): [] for e in engines for b in batches}
    load_before = loadavg()
    t_start = time.time()
    with open(args.log, "a") as log:
        for r in range(args.rounds):
            for b in batches:
                runs = args.runs_b1 if b == 1 else args.runs_b8
                warmup = args.warmup if b == 1 else args.warmup_b8
                for e in engines:
                    if e == "receipt":
                        cmd = [args.bench_bin, "--model", args.model, "--inputs", args.inputs]
                    else:
                        cmd = [args.python, os.path.join(HERE, "bench_peers.py"), "run", "--engine", e,
                               "--model", args.model, "--inputs", args.inputs]
                        if e.startswith("ct2"):
                            cmd += ["--ct2-dir", args.ct2_fp32 if e == "ct2-fp32" else args.ct2_int8]
                    cmd += ["--batch", str(b), "--threads", str(args.threads), "--new-tokens", str(args.new_tokens),
                            "--warmup", str(warmup), "--runs", str(runs)]
                    s = run_one(cmd, log)
                    samples[(e, b)].append(s)
                    msg = s.get("error") or f"{s['batch_ms_min'] / b:.0f} ms/receipt (min of {runs})"
                    print(f"  round {r + 1} batch {b} {e:9s} {msg}  load {loadavg()}", flush=True)

    results = {}
    for b in batches:
        row = {e: aggregate(samples[(e, b)]) for e in engines}
        hf = row.get("hf", {}).get("ms_per_receipt")
        for e, v in row.items():
            if hf and "ms_per_receipt" in v:
                v["speedup_vs_hf"] = round(hf / v["ms_per_receipt"], 2)
        results[f"batch{b}"] = row

    openblas = next((s.get("openblas") for s in samples.get(("receipt", batches[0]), []) if s.get("openblas")), None)
    targets = {}
    for b in batches:
        row = results[f"batch{b}"]
        ours = row.get("receipt", {}).get("ms_per_receipt")
        if ours and row.get("hf", {}).get("ms_per_receipt"):
            targets[f"batch{b}_2x_faster_than_hf"] = row["receipt"]["speedup_vs_hf"] >= 2.0
        if ours and row.get("ct2-fp32", {}).get("ms_per_receipt"):
            targets[f"batch{b}_at_least_ct2_fp32"] = ours <= row["ct2-fp32"]["ms_per_receipt"]
    with open(args.inputs) as f:
        input_len = len(json.load(f)[0])
    doc = {
        "benchmark": "t5-small (v1.0 shape, random weights), fp32 unless noted, greedy, "
                     f"{input_len} input tokens, exactly "
                     f"{args.new_tokens} generated tokens per sequence (min = max new tokens, EOS never allowed)",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": {
            "cpu": cpu_model(),
            "logical_cpus": os.cpu_count(),
            "physical_cores": physical_cores(),
            "threads_used": args.threads,
            "os": platform.platform(),
            "loadavg_before": load_before,
            "loadavg_after": loadavg(),
        },
        "versions": {
            "torch": versions.get("torch"),
            "transformers": versions.get("transformers"),
            "ctranslate2": versions.get("ctranslate2"),
            "openblas": openblas,
            "python": versions.get("python"),
        },
        "method": {
            "rounds": args.rounds,
            "warmup_per_process": {"batch1": args.warmup, "batch8": args.warmup_b8},
            "timed_runs_per_process": {"batch1": args.runs_b1, "batch8": args.runs_b8},
            "reported": "ms_per_receipt = fastest generate() call / batch; *_median = median of all timed calls; "
                        "tokens_per_s = batch * new_tokens / fastest call; peak_rss_mb = max ru_maxrss over the "
                        "processes of that configuration (one process per engine x batch x round); kv_cache_mb = "
                        "fp32 decoder self-attention K/V for all positions + cross-attention K/V of the source",
            "wall_s": round(time.time() - t_start, 1),
        },
        "exact_new_tokens_all": all(v.get("exact_new_tokens", False) for row in results.values() for v in row.values()),
        "results": results,
        "targets": targets,
        "notes": notes,
    }
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")

    print(f"\n{args.out}")
    print(f"{'batch':>5} {'engine':9} {'ms/receipt':>11} {'tok/s':>8} {'peak RSS MB':>12} {'vs HF':>6} exact")
    for b in batches:
        for e, v in results[f"batch{b}"].items():
            if "error" in v:
                print(f"{b:>5} {e:9} {v['error']}")
                continue
            print(f"{b:>5} {e:9} {v['ms_per_receipt']:>11.1f} {v['tokens_per_s']:>8.1f} {v['peak_rss_mb']:>12.1f} "
                  f"{v.get('speedup_vs_hf', float('nan')):>6.2f} {v['exact_new_tokens']}")
    for k, v in targets.items():
        print(f"target {k}: {'met' if v else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

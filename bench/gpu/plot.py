#!/usr/bin/env python3
"""Bar chart of ms per receipt (log scale) from bench/results/gpu-*.json: receipt-engine vs transformers.

Usage: plot.py OUT.png RESULT.json...   (needs matplotlib; run.sh treats a failure here as optional)
"""

import json
import os
import sys


def main():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out, files = sys.argv[1], sys.argv[2:]
    series = {}  # label -> {batch: ms}
    for path in files:
        with open(path) as f:
            rep = json.load(f)
        model = os.path.basename(rep["model"].rstrip("/"))
        for r in rep["results"]:
            if "transformers" in rep["benchmark"]:
                label = f"{model} HF {r['dtype']}"
            else:
                label = f"{model} receipt {rep['dtype']}"
            series.setdefault(label, {})[r["batch"]] = r["ms_per_receipt"]
    batches = sorted({b for s in series.values() for b in s})
    fig, ax = plt.subplots(figsize=(10, 5))
    width = 0.8 / max(1, len(series))
    for i, (label, s) in enumerate(sorted(series.items())):
        xs = [j + i * width for j in range(len(batches))]
        ax.bar(xs, [s.get(b, 0) for b in batches], width, label=label)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(batches))])
    ax.set_xticklabels([f"batch {b}" for b in batches])
    ax.set_yscale("log")
    ax.set_ylabel("ms per receipt (384 in, 128 out, greedy)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Replays receipts against a running `receipt serve` and prints one JSON summary line per concurrency level.

Each client thread keeps one HTTP/1.1 connection open and POSTs Vertex AI predict bodies, one receipt each, taken
in turn from a JSONL file of {"id", "text"} lines (for example the files of `python3 train/make_data.py`), so the
server sees real receipt lengths rather than the three short receipts of `predict.lua`. Standard library only.

Usage:
  python3 bench/load/replay.py --data FILE.jsonl [--url http://127.0.0.1:8080/predict] [--concurrency 1,16,64]
                               [--duration 10] [--out results.json]
Summary fields: concurrency, requests, requests_per_s, latency_ms {p50, p90, p99, max}, statuses {code: count}.
Exit status 1 when any request failed (a status other than 200, or a socket error).
"""
import argparse
import http.client
import json
import sys
import threading
import time
import urllib.parse


def percentile(sorted_values, q):
    """The q-quantile (0..1) of an ascending list, nearest rank; 0 for an empty list."""
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, int(round(q * (len(sorted_values) - 1)))))
    return sorted_values[k]


def run_level(url, bodies, concurrency, duration_s, timeout_s):
    """Runs `concurrency` clients for `duration_s` seconds; returns the summary dict."""
    parsed = urllib.parse.urlparse(url)
    host, port, path = parsed.hostname, parsed.port or 80, parsed.path or "/predict"
    lock = threading.Lock()
    latencies, statuses = [], {}
    stop_at = time.monotonic() + duration_s

    def client(index):
        conn = None
        n = index
        while time.monotonic() < stop_at:
            body = bodies[n % len(bodies)]
            n += concurrency
            t0 = time.monotonic()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(host, port, timeout=timeout_s)
                conn.request("POST", path, body, {"Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                code = str(resp.status)
                if resp.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as e:
                code = "error: " + type(e).__name__
                if conn is not None:
                    conn.close()
                conn = None
            ms = (time.monotonic() - t0) * 1000.0
            with lock:
                statuses[code] = statuses.get(code, 0) + 1
                if code == "200":
                    latencies.append(ms)
        if conn is not None:
            conn.close()

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    latencies.sort()
    total = sum(statuses.values())
    return {
        "concurrency": concurrency,
        "requests": total,
        "requests_per_s": round(total / elapsed, 2) if elapsed > 0 else 0.0,
        "latency_ms": {name: round(percentile(latencies, q), 1)
                       for name, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))},
        "statuses": statuses,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="JSONL of {\"id\", \"text\"} receipts")
    ap.add_argument("--url", default="http://127.0.0.1:8080/predict")
    ap.add_argument("--concurrency", default="1,16,64", help="comma-separated client counts")
    ap.add_argument("--duration", type=float, default=10.0, help="seconds per level")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    ap.add_argument("--limit", type=int, default=0, help="use only the first N receipts (0 = all)")
    ap.add_argument("--out", help="also write the summaries as a JSON list to this file")
    args = ap.parse_args()

    bodies = []
    with open(args.data, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                text = json.loads(line)["text"]
                bodies.append(json.dumps({"instances": [{"text": text}]}, ensure_ascii=False).encode("utf-8"))
            if args.limit and len(bodies) >= args.limit:
                break
    if not bodies:
        sys.exit(f"{args.data}: no receipts")
    levels = [int(c) for c in args.concurrency.split(",") if c.strip()]
    if not levels or min(levels) < 1:
        sys.exit("--concurrency: positive integers, e.g. 1,16,64")

    results, failed = [], False
    for c in levels:
        r = run_level(args.url, bodies, c, args.duration, args.timeout)
        print(json.dumps(r), flush=True)
        results.append(r)
        failed = failed or any(code != "200" for code in r["statuses"])
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

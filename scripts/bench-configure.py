#!/usr/bin/env python3
"""Per-click latency of the configurator as the page sees it: through `POST /api/configure`.

    scripts/bench-configure.py [SESSIONS] [N ...]      (default: 3 sessions of 64, 100, 200)

Starts `queens serve` (target/release/queens, or $QUEENS_BIN) on a free port and plays
simulated sessions as the page does: from an empty board, ask for the compact document, place
a queen on a random open square, and repeat until no square is open. Each click's time is the
whole request, from sending it to reading the last byte of the answer (analysis, JSON and
HTTP). Prints, per N, the clicks, the median, 95th percentile and largest time, and the median
and largest document. The sessions differ from the latency example's (Python draws the
squares), so compare this script's figures with each other.
"""

import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.request


def serve(binary):
    """`queens serve` on a free port: the process and its address."""
    server = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = server.stdout.readline()
    address = line.split("http://", 1)[1].split("/", 1)[0].strip()
    return server, address


def click(address, n, queens):
    """One click: the seconds the request took, the document's bytes and the document."""
    body = json.dumps({"n": n, "queens": queens, "compact": True}).encode()
    request = urllib.request.Request(
        f"http://{address}/api/configure",
        data=body,
        headers={"content-type": "application/json", "host": address},
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        answer = response.read()
    return time.perf_counter() - started, len(answer), json.loads(answer)


def session(address, n, rng):
    """One session of N×N: (seconds, bytes) of each click."""
    queens, clicks = [], []
    while True:
        seconds, size, document = click(address, n, queens)
        clicks.append((seconds, size))
        legend = {symbol: status for symbol, status in document["legend"].items()}
        open_squares = [
            index
            for index, symbol in enumerate(document["statuses"])
            if legend[symbol] == "open"
        ]
        if not open_squares:
            return clicks
        index = rng.choice(open_squares)
        queens.append({"row": index // n, "col": index % n})


def main():
    args = sys.argv[1:]
    sessions = int(args.pop(0)) if args and args[0].isdigit() and len(args) > 1 else 3
    sizes = [int(n) for n in args] or [64, 100, 200]
    binary = os.environ.get("QUEENS_BIN", "target/release/queens")
    server, address = serve(binary)
    try:
        print(f"{sessions} sessions per N through POST /api/configure (compact)")
        print(f"{'N':>5} {'clicks':>7} {'median':>10} {'p95':>10} {'max':>10} {'doc median':>11} {'doc max':>9}")
        for n in sizes:
            times, sizes_seen = [], []
            for s in range(sessions):
                for seconds, size in session(address, n, random.Random(s * 1000 + n)):
                    times.append(seconds)
                    sizes_seen.append(size)
            times.sort()
            p95 = times[round((len(times) - 1) * 0.95)]
            print(
                f"{n:>5} {len(times):>7} {statistics.median(times) * 1e3:>7.1f} ms"
                f" {p95 * 1e3:>7.1f} ms {times[-1] * 1e3:>7.1f} ms"
                f" {statistics.median(sizes_seen) / 1e3:>8.1f} KB {max(sizes_seen) / 1e3:>6.1f} KB"
            )
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()

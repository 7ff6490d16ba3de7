#!/usr/bin/env python3
"""The completion search against the paper's bit solver, side by side, on the same instances.

Gent, Jefferson and Nightingale ("Complexity of n-Queens Completion", JAIR 2017) decided their
excluded-diagonals instances with a bit-parallel backtracker of their own,
`Problems/prob079/models/shiftqueensdiags.cc` in CSPLib (MIT). This script builds it from a
checkout of github.com/csplib/csplib with `g++ -O3 -march=native`, then runs it and
`queens solve --instance FILE --diagonals D` on the same instances in turns (which one goes first
alternates), each as its own process timed by the wall clock, checks that both give the answer
the paper published, and prints the totals and their ratio per board size.

    scripts/completion/bench.py /path/to/csplib [--queens target/release/queens]
        [--sizes 18-21] [--low 0.8] [--high 0.9] [--every 20] [--hardest]

By default it takes every 20th instance (ids 20, 40, ..., 1000) of each size from 18 to 21 and
every prefix of D diagonals with 0.8 N <= D <= 0.9 N (the phase transition, where instances are
hardest), and, with --hardest, adds the paper's hardest instance (N = 19, D = 14, id 686, 419 s
for the bit solver in the paper).

With --placed, the paper's other experiment: instances of placed queens made by CSPLib's own
generator (`Problems/prob079/data/queens-gen-fast.py N PLACED SEED`) at the paper's sizes (N = 66
to 402, 20, 25 and 30 queens left to place), decided by the paper's bit solver for placed queens
(`shiftqueens-128.cc` for N <= 127, `shiftqueens-boost-1024.cc` beyond, which needs Boost's
headers: Debian's libboost-dev) and by `queens solve --instance FILE`, in turns, each with a
time limit (--limit seconds); an answer missing at the limit is counted at the limit and said so.

    scripts/completion/bench.py /path/to/csplib --placed [--left 20,25,30] [--seeds 3]
        [--step 12] [--limit 10]
"""

import argparse
import gzip
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csplib", type=Path, help="a checkout of github.com/csplib/csplib")
    parser.add_argument("--queens", type=Path, default=Path("target/release/queens"))
    parser.add_argument("--sizes", default="18-21", help="N or a range LOW-HIGH")
    parser.add_argument("--low", type=float, default=0.8, help="smallest D as a share of N")
    parser.add_argument("--high", type=float, default=0.9, help="largest D as a share of N")
    parser.add_argument("--every", type=int, default=20, help="take every K-th instance id")
    parser.add_argument("--hardest", action="store_true", help="add N = 19, D = 14, id 686")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    parser.add_argument("--placed", action="store_true",
                        help="the placed-queens experiment (instances from CSPLib's generator)")
    parser.add_argument("--left", default="20,25,30", help="queens left to place")
    parser.add_argument("--seeds", type=int, default=3, help="instances per size and left")
    parser.add_argument("--step", type=int, default=12, help="N from 66 to 402 by this step")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds each run may take")
    return parser.parse_args()


def sizes(text):
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def build_bit_solver(csplib, cxx, work):
    source = csplib / "Problems/prob079/models/shiftqueensdiags.cc"
    binary = work / "shiftqueensdiags"
    subprocess.run([cxx, "-O3", "-march=native", "-o", str(binary), str(source)], check=True)
    return binary


def published_answers(csplib):
    """(n, diagonals, id) -> satisfiable, from the paper's processed results of the bit solver."""
    path = csplib / "Problems/prob079/results/run-diags-shiftqueens-processed.txt.gz"
    answers = {}
    with gzip.open(path, "rt") as lines:
        for line in lines:
            fields = line.split()
            found = re.search(r"Solutions: (\d+)", line)
            if len(fields) >= 4 and found:
                n, diagonals, _, ident = (int(f) for f in fields[:4])
                answers[(n, diagonals, ident)] = found.group(1) != "0"
    return answers


def instances(csplib, n, work):
    """The instance files of size n, by id."""
    with tarfile.open(csplib / f"Problems/prob079/data/diag-{n}.tar.gz") as archive:
        archive.extractall(work, filter="data")
    found = {}
    for path in (work / f"diag-{n}").glob(f"diag-{n}-4-*.param"):
        found[int(path.stem.rsplit("-", 1)[1])] = path
    return found


def bit_solver_input(path):
    """The bit solver reads the side, the number of diagonals and the pairs, as numbers."""
    return " ".join(re.findall(r"-?\d+", path.read_text())) + "\n"


def timed(command, stdin=None):
    started = time.perf_counter()
    result = subprocess.run(command, input=stdin, capture_output=True, text=True)
    return time.perf_counter() - started, result


def run_bit_solver(binary, path, diagonals):
    seconds, result = timed([str(binary), str(diagonals)], bit_solver_input(path))
    if "Solution Found" in result.stdout:
        return seconds, True
    if "No solution" in result.stdout:
        return seconds, False
    sys.exit(f"the bit solver gave no answer on {path} D = {diagonals}: {result.stdout[-300:]}")


def run_queens(queens, path, diagonals):
    command = [str(queens), "solve", "--instance", str(path), "--diagonals", str(diagonals),
               "--format", "summary", "--max-nodes", "1000000000000"]
    seconds, result = timed(command)
    if result.returncode not in (0, 1):
        sys.exit(f"queens failed on {path} D = {diagonals}: {result.stderr}")
    return seconds, result.returncode == 0


def build_placed_solvers(csplib, cxx, work):
    """The paper's two bit solvers for placed queens. The 128-bit one keeps its solution in an
    array of 100 rows; it is built with room for 128 so that boards from 101 to 127 stay in
    bounds (a copy is patched, the checkout is left as it is)."""
    models = csplib / "Problems/prob079/models"
    narrow_source = work / "shiftqueens-128.cc"
    narrow_source.write_text(
        (models / "shiftqueens-128.cc").read_text().replace("sol[100]", "sol[128]"))
    narrow, wide = work / "shiftqueens-128", work / "shiftqueens-1024"
    subprocess.run([cxx, "-O3", "-march=native", "-o", str(narrow), str(narrow_source)],
                   check=True)
    subprocess.run([cxx, "-O3", "-march=native", "-o", str(wide),
                    str(models / "shiftqueens-boost-1024.cc")], check=True)
    return narrow, wide


def placed_instances(csplib, work, left_values, seeds, step):
    """(n, left, seed, file) for the paper's sizes, made by CSPLib's generator."""
    generator = csplib / "Problems/prob079/data/queens-gen-fast.py"
    made = []
    for n in range(66, 403, step):
        for left in left_values:
            for seed in range(1, seeds + 1):
                result = subprocess.run([sys.executable, str(generator), str(n), str(n - left),
                                         str(seed)], capture_output=True, text=True)
                if result.returncode != 0:
                    continue
                path = work / f"placed-{n}-{left}-{seed}.param"
                path.write_text(result.stdout)
                made.append((n, left, seed, path))
    return made


def run_placed_bit_solver(narrow, wide, path, limit):
    text = path.read_text()
    n = int(re.search(r"letting n\s*=\s*(\d+)", text).group(1))
    init = re.search(r"letting init\s*=\s*(\[.*\])", text, re.S).group(1)
    pairs = re.findall(r"\[\s*(\d+)\s*,\s*(\d+)\s*\]", init)
    # The bit solver takes (x, y) = (column, row) pairs; the instance lists (row, column).
    command = [str(narrow if n <= 127 else wide), str(n)]
    for row, col in pairs:
        command += [col, row]
    try:
        seconds, result = timed_limited(command, limit)
    except subprocess.TimeoutExpired:
        return limit, None
    if "Solution Found" in result.stdout:
        return seconds, True
    if "No solution" in result.stdout:
        return seconds, False
    sys.exit(f"the bit solver gave no answer on {path}: {result.stdout[-300:]}")


def run_placed_queens(queens, path, limit):
    command = [str(queens), "solve", "--instance", str(path), "--format", "summary",
               "--time-limit", str(limit)]
    seconds, result = timed(command)
    if result.returncode not in (0, 1):
        sys.exit(f"queens failed on {path}: {result.stderr}")
    if "status=stopped" in result.stdout:
        return limit, None
    return seconds, result.returncode == 0


def timed_limited(command, limit):
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, timeout=limit)
    return time.perf_counter() - started, result


def placed(args):
    left_values = [int(x) for x in args.left.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        narrow, wide = build_placed_solvers(args.csplib, args.cxx, work)
        cases = placed_instances(args.csplib, work, left_values, args.seeds, args.step)
        rows = []
        mismatches = 0
        for turn, (n, left, seed, path) in enumerate(cases):
            runs = [("bit", lambda: run_placed_bit_solver(narrow, wide, path, args.limit)),
                    ("queens", lambda: run_placed_queens(args.queens, path, args.limit))]
            if turn % 2:
                runs.reverse()
            measured = {name: run() for name, run in runs}
            answers = {name: answer for name, (_, answer) in measured.items()}
            if None not in answers.values() and len(set(answers.values())) > 1:
                mismatches += 1
                print(f"mismatch: N = {n}, {left} left, seed {seed}: {answers}")
            rows.append((n, left, seed, measured))
        print(f"{len(rows)} instances, {mismatches} mismatches (bit solvers: {args.cxx} -O3 "
              f"-march=native; each run a process, wall clock, limit {args.limit} s)")
        print(f"{'left':>5} {'cases':>6} {'bit solver s':>13} {'queens s':>10} {'ratio':>7} "
              f"{'bit at limit':>13} {'queens at limit':>16} {'slowest queens':>15}")
        for left in left_values + ["all"]:
            chosen = [r for r in rows if left == "all" or r[1] == left]
            if not chosen:
                continue
            bit = sum(r[3]["bit"][0] for r in chosen)
            ours = sum(r[3]["queens"][0] for r in chosen)
            print(f"{left:>5} {len(chosen):>6} {bit:>13.2f} {ours:>10.2f} {ours / bit:>7.3f} "
                  f"{sum(r[3]['bit'][1] is None for r in chosen):>13} "
                  f"{sum(r[3]['queens'][1] is None for r in chosen):>16} "
                  f"{max(r[3]['queens'][0] for r in chosen):>15.3f}")
        print(f"\n{'N':>5} {'cases':>6} {'bit solver s':>13} {'queens s':>10} {'ratio':>7} "
              f"{'bit at limit':>13}")
        for n in sorted({r[0] for r in rows}):
            chosen = [r for r in rows if r[0] == n]
            bit = sum(r[3]["bit"][0] for r in chosen)
            ours = sum(r[3]["queens"][0] for r in chosen)
            print(f"{n:>5} {len(chosen):>6} {bit:>13.2f} {ours:>10.2f} {ours / bit:>7.3f} "
                  f"{sum(r[3]['bit'][1] is None for r in chosen):>13}")
        print("\nA run at the limit counts as the limit: the bit solver's times are lower bounds, "
              "and so are its ratios' denominators.")
        print("\nThe 20 instances hardest for the bit solver:")
        print(f"{'N':>5} {'left':>5} {'seed':>5} {'answer':>8} {'bit solver s':>13} {'queens s':>10}")
        hardest = sorted(rows, key=lambda r: -r[3]["bit"][0])[:20]
        for n, left, seed, measured in hardest:
            answer = measured["queens"][1]
            if answer is None:
                answer = measured["bit"][1]
            said = {True: "solved", False: "none", None: "unknown"}[answer]
            bit_s = measured["bit"][0]
            bit_text = f">{bit_s:.0f}" if measured["bit"][1] is None else f"{bit_s:.3f}"
            print(f"{n:>5} {left:>5} {seed:>5} {said:>8} {bit_text:>13} "
                  f"{measured['queens'][0]:>10.3f}")
        sys.exit(1 if mismatches else 0)


def main():
    args = parse_args()
    if args.placed:
        placed(args)
        return
    answers = published_answers(args.csplib)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        bit_solver = build_bit_solver(args.csplib, args.cxx, work)
        cases = []
        for n in sizes(args.sizes):
            files = instances(args.csplib, n, work)
            low, high = round(args.low * n + 0.4999), int(args.high * n)
            for ident in sorted(files):
                if ident % args.every == 0:
                    cases.extend((n, d, ident, files[ident]) for d in range(low, high + 1))
        if args.hardest:
            files = instances(args.csplib, 19, work)
            cases.append((19, 14, 686, files[686]))
        totals = {}
        mismatches = 0
        for turn, (n, d, ident, path) in enumerate(cases):
            runs = [("bit", lambda: run_bit_solver(bit_solver, path, d)),
                    ("queens", lambda: run_queens(args.queens, path, d))]
            if turn % 2:
                runs.reverse()
            measured = {name: run() for name, run in runs}
            published = answers.get((n, d, ident))
            said = {name: answer for name, (_, answer) in measured.items()}
            if len(set(said.values())) > 1 or (published is not None and said["queens"] != published):
                mismatches += 1
                print(f"mismatch: N = {n}, D = {d}, id {ident}: {said}, published {published}")
            key = "hardest" if (n, d, ident) == (19, 14, 686) and args.hardest else n
            entry = totals.setdefault(key, {"cases": 0, "bit": [], "queens": []})
            entry["cases"] += 1
            for name, (seconds, _) in measured.items():
                entry[name].append(seconds)
        print(f"{len(cases)} instances, {mismatches} mismatches "
              f"(bit solver: {args.cxx} -O3 -march=native; each run a process, wall clock)")
        print(f"{'N':>8} {'cases':>6} {'bit solver s':>13} {'queens s':>10} {'ratio':>7} "
              f"{'slowest bit':>12} {'slowest queens':>15}")
        for key, entry in totals.items():
            bit, ours = sum(entry["bit"]), sum(entry["queens"])
            print(f"{key:>8} {entry['cases']:>6} {bit:>13.2f} {ours:>10.2f} {ours / bit:>7.3f} "
                  f"{max(entry['bit']):>12.3f} {max(entry['queens']):>15.3f}")
        every_bit = [s for e in totals.values() for s in e["bit"]]
        every_ours = [s for e in totals.values() for s in e["queens"]]
        print(f"{'all':>8} {len(every_bit):>6} {sum(every_bit):>13.2f} {sum(every_ours):>10.2f} "
              f"{sum(every_ours) / sum(every_bit):>7.3f}   median per instance: bit "
              f"{statistics.median(every_bit) * 1e3:.1f} ms, queens "
              f"{statistics.median(every_ours) * 1e3:.1f} ms")
        sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()

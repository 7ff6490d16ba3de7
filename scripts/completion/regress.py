#!/usr/bin/env python3
"""The completion search against a build before it: run this before each change to the search.

Decides the 400 blocked n-Queens instances of the ASP competitions (CSPLib problem 080) and a
sample of the excluded-diagonals instances (problem 079, every --every-th id of each size in
--sizes, at D = 0.85 N, the phase transition) with `queens solve --instance FILE`, by the build
under test and, with --before, by an earlier build, in turns (which one goes first alternates),
each run its own process timed by the wall clock. Every answer is checked against the published
one. It prints, per set and per board size, the total and the worst time and nodes of each
build, then the instances that slowed down most.

    scripts/completion/regress.py /path/to/csplib [--queens target/release/queens]
        [--before OLD_BINARY] [--sizes 16-21] [--every 50] [--asp-every 1] [--limit 120]
        [--only asp|diagonals]

/path/to/csplib is a checkout of github.com/csplib/csplib. To build the one before:

    git worktree add /tmp/before HEAD~1 && cargo build --release --manifest-path \
        /tmp/before/Cargo.toml --target-dir /tmp/before-target -p queens-cli

It exits 1 when an answer differs from the published one.
"""

import argparse
import gzip
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

# The paper's answers, read as the side-by-side benchmark beside this script reads them.
from bench import published_answers


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csplib", type=Path, help="a checkout of github.com/csplib/csplib")
    parser.add_argument("--queens", type=Path, default=Path("target/release/queens"))
    parser.add_argument("--before", type=Path, help="an earlier build's queens binary")
    parser.add_argument("--sizes", default="16-21", help="excluded-diagonals sizes, LOW-HIGH")
    parser.add_argument("--every", type=int, default=50, help="take every K-th diagonals id")
    parser.add_argument("--asp-every", type=int, default=1,
                        help="take every K-th ASP instance (1: all 400), for a quick look")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds a run may take")
    parser.add_argument("--only", choices=["asp", "diagonals"], help="run one set only")
    return parser.parse_args()


def asp_cases(csplib, work, every):
    """(set, n, label, file, extra arguments, published answer) for the 400 ASP instances."""
    data = csplib / "Problems/prob080"
    with tarfile.open(data / "data/asp-competition-instances.tar.gz") as archive:
        archive.extractall(work, filter="data")
    cases = []
    with gzip.open(data / "results/run-aspbenchmarks-lingeling-python.txt.gz", "rt") as lines:
        for index, line in enumerate(lines):
            if index % every:
                continue
            n, _, ident, status = line.split()[:4]
            path = work / f"asp-competition-instances/blockedqueens.{n}.{ident}.param"
            cases.append(("asp", int(n), ident, path, [], status == "SATISFIABLE"))
    return cases


def diagonal_cases(csplib, work, sizes, every):
    """The sampled excluded-diagonals instances at D = 0.85 N, with the bit solver's answers."""
    data = csplib / "Problems/prob079"
    answers = published_answers(csplib)
    cases = []
    for n in sizes:
        with tarfile.open(data / f"data/diag-{n}.tar.gz") as archive:
            archive.extractall(work, filter="data")
        diagonals = round(0.85 * n)
        for path in sorted((work / f"diag-{n}").glob(f"diag-{n}-4-*.param")):
            ident = int(path.stem.rsplit("-", 1)[1])
            if ident % every == 0:
                cases.append(("diagonals", n, f"{ident} D={diagonals}", path,
                              ["--diagonals", str(diagonals)], answers.get((n, diagonals, ident))))
    return cases


def run(binary, path, extra, limit):
    """(seconds, nodes, answer): answer True solved, False no completion, None not decided."""
    command = [str(binary), "solve", "--instance", str(path), *extra, "--format", "json",
               "--time-limit", str(limit)]
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    try:
        document = json.loads(result.stdout)
    except json.JSONDecodeError:
        sys.exit(f"{binary} gave no result on {path}: {result.stderr.strip()[-300:]}")
    answer = {"solved": True, "unsolvable": False}.get(document.get("status"))
    return seconds, document.get("nodes") or 0, answer


def table(rows, builds):
    """Per set and board size: cases, then total and worst seconds and nodes per build."""
    header = f"{'set':>10} {'N':>4} {'cases':>6}"
    for build in builds:
        header += f" | {build + ' s':>12} {'worst s':>8} {'M nodes':>9} {'worst M':>8}"
    print(header)
    groups = sorted({(r["set"], r["n"]) for r in rows}) + [("all", None)]
    for group in groups:
        chosen = [r for r in rows if group == ("all", None) or (r["set"], r["n"]) == group]
        line = f"{group[0]:>10} {group[1] or '':>4} {len(chosen):>6}"
        for build in builds:
            seconds = [r[build][0] for r in chosen]
            nodes = [r[build][1] for r in chosen]
            line += (f" | {sum(seconds):>12.2f} {max(seconds):>8.2f} {sum(nodes) / 1e6:>9.1f} "
                     f"{max(nodes) / 1e6:>8.1f}")
        print(line)


def main():
    args = parse_args()
    low, _, high = args.sizes.partition("-")
    sizes = range(int(low), int(high or low) + 1)
    builds = {"after": args.queens}
    if args.before:
        builds = {"before": args.before, **builds}
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        cases = []
        if args.only in (None, "asp"):
            cases += asp_cases(args.csplib, work, args.asp_every)
        if args.only in (None, "diagonals"):
            cases += diagonal_cases(args.csplib, work, sizes, args.every)
        rows, mismatches, undecided = [], 0, 0
        for turn, (kind, n, label, path, extra, published) in enumerate(cases):
            order = list(builds.items())
            if turn % 2:
                order.reverse()
            row = {"set": kind, "n": n, "label": label}
            for name, binary in order:
                row[name] = run(binary, path, extra, args.limit)
                answer = row[name][2]
                if answer is None:
                    undecided += 1
                    print(f"undecided within {args.limit} s: {name}, {kind} N = {n} {label}")
                elif published is not None and answer != published:
                    mismatches += 1
                    print(f"mismatch: {name}, {kind} N = {n} {label}: {answer}, "
                          f"published {published}")
            rows.append(row)
        print(f"{len(rows)} instances, {mismatches} mismatches, {undecided} undecided "
              f"(each run a process, wall clock)")
        table(rows, list(builds))
        if args.before:
            print("\nThe ten instances that slowed down most (after / before):")
            slowest = sorted(rows, key=lambda r: -r["after"][0] / max(r["before"][0], 1e-3))
            for r in slowest[:10]:
                print(f"  {r['set']} N = {r['n']} {r['label']}: {r['before'][0]:.2f} s "
                      f"{r['before'][1]} nodes -> {r['after'][0]:.2f} s {r['after'][1]} nodes")
        sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# One solution for large N by search: `queens solve N --solver min-conflicts --format summary`
# beside a C QS4-style program with 1-byte counters (scripts/reference/qs4.c, gcc -O2), in one
# run on this machine.
#
#   scripts/bench-large.sh [N...]          (default: 1000000 10000000 100000000 1000000000)
#   REPEATS=5 scripts/bench-large.sh 10000000
#   scripts/bench-large.sh 4294967295      (the largest N; about half an hour, 20 GB)
#
# For each N it prints the median wall time of each program over REPEATS interleaved runs
# (seeds 1, 2, ...; default 3 up to N = 10⁷ and 1 beyond), the peak memory per queen from GNU
# time, the swaps tried by min-conflicts' repair, and the ratio queens/C. The C program runs
# only where its 8 bytes a queen fit in the available memory. Needs gcc and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1000000 10000000 100000000 1000000000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet --bin queens
gcc -O2 -o "$work/qs4" scripts/reference/qs4.c
queens=target/release/queens
gnu_time=/usr/bin/time
[[ -x $gnu_time ]] || { echo "GNU time (/usr/bin/time) is needed for the peak memory" >&2; exit 2; }
available_kib=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)

# run CMD...: prints "milliseconds peak_kib" for one run, its output in $work/out.
run() {
    local start end kib
    start=$(date +%s%N)
    kib=$("$gnu_time" -f %M "$@" 2>&1 >"$work/out" | tail -1)
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000000 )) $kib"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-12s %12s %10s %8s %12s %10s %7s\n' N "queens (s)" "B/queen" swaps "C QS4 (s)" "B/queen" ratio
for n in "${sizes[@]}"; do
    repeats=${REPEATS:-$(( n <= 10000000 ? 3 : 1 ))}
    c_fits=$(( n * 8 / 1024 < available_kib * 9 / 10 ))
    : >"$work/q" >"$work/c"
    for seed in $(seq "$repeats"); do
        if (( c_fits )); then
            read -r ms kib < <(run "$work/qs4" "$n" "$seed")
            grep -q solved "$work/out" || { echo "C QS4 failed at N = $n" >&2; exit 1; }
            echo "$ms $kib" >>"$work/c"
        fi
        read -r ms kib < <(run "$queens" solve "$n" --solver min-conflicts --format summary --seed "$seed")
        grep -q "status=solved" "$work/out" || { echo "queens failed at N = $n: $(cat "$work/out")" >&2; exit 1; }
        swaps=$(sed -n 's/.*iterations=\([0-9]*\).*/\1/p' "$work/out")
        echo "$ms $kib $swaps" >>"$work/q"
    done
    q_ms=$(cut -d' ' -f1 "$work/q" | median)
    q_kib=$(cut -d' ' -f2 "$work/q" | sort -n | tail -1)
    swaps=$(cut -d' ' -f3 "$work/q" | median)
    if (( c_fits )); then
        c_ms=$(cut -d' ' -f1 "$work/c" | median)
        c_kib=$(cut -d' ' -f2 "$work/c" | sort -n | tail -1)
        awk -v n="$n" -v q="$q_ms" -v qk="$q_kib" -v s="$swaps" -v c="$c_ms" -v ck="$c_kib" 'BEGIN {
            printf "%-12d %12.3f %10.2f %8d %12.3f %10.2f %7.3f\n", n, q / 1e3, qk * 1024 / n, s, c / 1e3, ck * 1024 / n, q / c }'
    else
        awk -v n="$n" -v q="$q_ms" -v qk="$q_kib" -v s="$swaps" 'BEGIN {
            printf "%-12d %12.3f %10.2f %8d %12s %10s %7s\n", n, q / 1e3, qk * 1024 / n, s, "(no room)", "-", "-" }'
    fi
done
echo "medians of interleaved runs; wall time includes start-up and queens' own validation"

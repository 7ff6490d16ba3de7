#!/usr/bin/env bash
# Side-by-side benchmark of `queens count` against a plain C counter (recursive bitmask search
# with mirror halving, scripts/reference/mirror_count.c, built with gcc -O3 -march=native), all
# in one run on this machine, so that ratios compare like with like.
#
#   scripts/bench-count.sh [REPEATS] [--n20]     (default: best of 3)
#
# Measures the C counter at N = 16, then `queens count` at N = 16 on one thread (both
# engines) and N = 18 on two threads (total and unique), each against the C counter's N = 16
# time. With --n20 it also counts N = 20 on two threads once, with its peak memory. Needs gcc.
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=3
twenty=false
for arg in "$@"; do
    case "$arg" in
        --n20) twenty=true ;;
        *[!0-9]* | "") echo "usage: $0 [REPEATS] [--n20]" >&2; exit 2 ;;
        *) repeats=$arg ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet --bin queens
gcc -O3 -march=native -o "$work/mirror_count" scripts/reference/mirror_count.c
queens=target/release/queens

# The programs, each with what its output must hold; they run in turns, REPEATS rounds, so that
# a slow spell of a shared machine touches them alike. Each keeps its best wall time.
names=(c16 join16 back16 join18)
declare -A expected=(
    [c16]=14772512 [join16]='"unique":1846955' [back16]='"unique":1846955' [join18]='"unique":83263591'
)
declare -A command=(
    [c16]="$work/mirror_count 16"
    [join16]="$queens count 16 --threads 1 --json"
    [back16]="$queens count 16 --threads 1 --json --engine backtracking"
    [join18]="$queens count 18 --threads 2 --json"
)
declare -A best
for _ in $(seq "$repeats"); do
    for name in "${names[@]}"; do
        start=$(date +%s%N)
        out=$(${command[$name]})
        end=$(date +%s%N)
        echo "$out" | grep -q -- "${expected[$name]}" || { echo "wrong count from ${command[$name]}: $out" >&2; exit 1; }
        t=$(( (end - start) / 1000 ))
        [[ -z "${best[$name]:-}" || "$t" -lt "${best[$name]}" ]] && best[$name]=$t
    done
done
seconds() { printf '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)); }
c16=$(seconds "${best[c16]}")
join16=$(seconds "${best[join16]}")
back16=$(seconds "${best[back16]}")
join18=$(seconds "${best[join18]}")

ratio() { awk "BEGIN { printf \"%.3f\", $1 / $2 }"; }

echo "Best of $repeats, wall time; ratios against the C counter's N = 16:"
printf '  %-52s %9.3f s   ratio %s\n' "C mirror-halving counter, N = 16, 1 thread" "$c16" "1.000"
printf '  %-52s %9.3f s   ratio %s   (target <= 0.055)\n' "queens count 16 --threads 1 (join)" "$join16" "$(ratio "$join16" "$c16")"
printf '  %-52s %9.3f s   ratio %s\n' "queens count 16 --threads 1 --engine backtracking" "$back16" "$(ratio "$back16" "$c16")"
printf '  %-52s %9.3f s   ratio %s   (target < 1.2)\n' "queens count 18 --threads 2 (join, total and unique)" "$join18" "$(ratio "$join18" "$c16")"

if $twenty; then
    /usr/bin/time -f '%e %M' -o "$work/time20" "$queens" count 20 --threads 2 --json > "$work/count20"
    grep -q '"unique":4878666808' "$work/count20" || { echo "wrong count for N = 20: $(cat "$work/count20")" >&2; exit 1; }
    read -r seconds kilobytes < "$work/time20"
    printf '  %-52s %9.3f s   peak %d MB   (target < 600 s)\n' "queens count 20 --threads 2 (join, total and unique)" "$seconds" $((kilobytes / 1024))
fi

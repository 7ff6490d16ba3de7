#!/usr/bin/env bash
# Side-by-side benchmark of `queens count` against a plain C counter (recursive bitmask search
# with mirror halving, built with gcc -O3 -march=native), in one run on this machine.
#
#   scripts/bench-count.sh [N] [REPEATS]      (defaults: N = 16, best of 3)
#
# Prints each program's best wall time and the ratios queens/C. Needs gcc.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-16}
repeats=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet --bin queens
gcc -O3 -march=native -o "$work/mirror_count" scripts/reference/mirror_count.c
queens=target/release/queens

# best_time CMD...: the best wall time of REPEATS runs, in seconds; checks the output's total.
best_time() {
    local best="" start end t out
    for _ in $(seq "$repeats"); do
        start=$(date +%s%N)
        out=$("$@")
        end=$(date +%s%N)
        t=$(( (end - start) / 1000 ))
        [[ -z "$best" || "$t" -lt "$best" ]] && best=$t
        echo "$out" | grep -q "$expected" || { echo "wrong count from $*: $out" >&2; exit 1; }
    done
    printf '%d.%06d' $((best / 1000000)) $((best % 1000000))
}

expected=$("$work/mirror_count" "$n")
c=$(best_time "$work/mirror_count" "$n")
one=$(best_time "$queens" count "$n" --threads 1 --json)
two=$(best_time "$queens" count "$n" --threads 2 --json)
echo "N = $n ($expected solutions), best of $repeats, wall time:"
printf '  %-34s %8.3f s\n' "C mirror-halving (gcc -O3 native)" "$c"
printf '  %-34s %8.3f s   ratio %.3f\n' "queens count --threads 1" "$one" "$(awk "BEGIN{print $one / $c}")"
printf '  %-34s %8.3f s   ratio %.3f\n' "queens count --threads 2" "$two" "$(awk "BEGIN{print $two / $c}")"

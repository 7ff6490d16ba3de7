#!/usr/bin/env bash
# Decides the 400 blocked n-Queens instances of the ASP competitions (CSPLib problem 080) with
# `queens solve --instance` and compares every answer with the published one (Lingeling's, in
# the paper's results), printing the mismatches, the total and the slowest time.
#
#   scripts/completion/asp.sh /path/to/csplib [queens binary]
#
# /path/to/csplib is a checkout of github.com/csplib/csplib; the binary defaults to
# target/release/queens (cargo build --release first).
set -euo pipefail
csplib=${1:?usage: scripts/completion/asp.sh /path/to/csplib [queens binary]}
queens=${2:-target/release/queens}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar xzf "$csplib/Problems/prob080/data/asp-competition-instances.tar.gz" -C "$work"
gunzip -c "$csplib/Problems/prob080/results/run-aspbenchmarks-lingeling-python.txt.gz" > "$work/published.txt"
mismatches=0 total=0 slowest=0 slowest_file=
while read -r n _ id status _; do
  file="$work/asp-competition-instances/blockedqueens.$n.$id.param"
  set +e
  out=$("$queens" solve --instance "$file" --format summary --max-nodes 10000000000 2>&1)
  rc=$?
  set -e
  want=1
  [ "$status" = SATISFIABLE ] && want=0
  if [ "$rc" != "$want" ]; then
    mismatches=$((mismatches + 1))
    echo "mismatch: $(basename "$file") published $status, got: $out"
  fi
  ms=$(sed -E 's/.*elapsed_ms=([0-9.]+).*/\1/' <<<"$out")
  total=$(echo "$total + $ms" | bc)
  if (( $(echo "$ms > $slowest" | bc) )); then slowest=$ms; slowest_file=$(basename "$file"); fi
done < "$work/published.txt"
echo "$(wc -l < "$work/published.txt") instances, $mismatches mismatches, $total ms in all, slowest $slowest ms ($slowest_file)"

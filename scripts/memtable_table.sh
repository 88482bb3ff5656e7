#!/usr/bin/env bash
# The memtable table of docs/BENCHMARKS.md: memtablerep_bench for every rep
# and item size in one run, printed as a Markdown table.
#
#   scripts/memtable_table.sh [NUM_OPERATIONS] [REPS...]
#
# Each rep and item size runs fillrandom,fillseq,readrandom,readseq in one
# process (readrandom reads the fillseq memtable, as memtablerep_bench's
# fills each start a new one). Cells are µs/op (readseq: ms per full scan
# of --num_scans=3), B/entry is ApproximateMemoryUsage after fillrandom over
# NUM_OPERATIONS, RSS the process peak. BIN=path runs that binary instead of
# building ./cmd/memtablerep_bench; LOGDIR=dir keeps the raw outputs, and a
# rerun with the same LOGDIR reuses every complete log in it. badger_skl's
# arena is fixed: give it room, e.g. 'badger_skl:{"mem_cap":"3G"}' for 10M.
set -euo pipefail
num=${1:-10000000}
shift || true
reps=("$@")
[ ${#reps[@]} -gt 0 ] || reps=(skiplist offset_skiplist 'badger_skl:{"mem_cap":"3G"}' 'cspp:{"mem_cap":"4G"}')
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${BIN:-"$tmp/memtablerep_bench"}
[ -n "${BIN:-}" ] || go build -o "$bin" ./cmd/memtablerep_bench
logs=${LOGDIR:-$tmp}
mkdir -p "$logs"

declare -A cell
for item in 0 50; do
  for rep in "${reps[@]}"; do
    log="$logs/$(echo "$rep" | tr -c 'a-zA-Z0-9_\n' '_')-$item.log"
    if [ -n "${LOGDIR:-}" ] && grep -q '^peak_rss_kb' "$log" 2>/dev/null && ! grep -q 'exited with' "$log"; then
      echo "$rep item_size=$item: reusing $log" >&2
    else
      echo "$(date +%T) $rep item_size=$item ..." >&2
      if ! /usr/bin/time -f 'peak_rss_kb %M' "$bin" --memtablerep="$rep" --num_operations="$num" \
        --item_size="$item" --benchmarks=fillrandom,fillseq,readrandom,readseq --num_scans=3 >"$log" 2>&1; then
        echo "$rep item_size=$item failed: $(grep -m1 memtablerep_bench: "$log")" >&2
      fi
    fi
    cell[$rep,$item]=$(awk -v n="$num" '
      /^Running / {b = $2}
      /us\/op:/ {v = $NF; if (b == "readseq") printf "%s ", sprintf("%.0f", v / 1000); else printf "%s ", sprintf("%.3g", v)}
      /^ApproximateMemoryUsage:/ && b == "fillrandom" {mem = sprintf("%.1f", $2 / n)}
      /^peak_rss_kb/ {rss = sprintf("%.0f", $2 / 1024)}
      END {printf "%s %s", mem, rss}' "$log")
  done
done

echo "memtablerep_bench --num_operations=$num --benchmarks=fillrandom,fillseq,readrandom,readseq --num_scans=3"
echo "µs/op (readseq: ms per full scan), item_size 0 / 50; B/entry after fillrandom; peak RSS MiB"
echo
echo "| rep | fillrandom | fillseq | readrandom | readseq | B/entry | peak RSS |"
echo "|---|---|---|---|---|---|---|"
for rep in "${reps[@]}"; do
  read -r -a a <<<"${cell[$rep,0]}"
  read -r -a b <<<"${cell[$rep,50]}"
  printf '| %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s |\n' "$rep" \
    "${a[0]}" "${b[0]}" "${a[1]}" "${b[1]}" "${a[2]}" "${b[2]}" "${a[3]}" "${b[3]}" "${a[4]}" "${b[4]}" "${a[5]}" "${b[5]}"
done

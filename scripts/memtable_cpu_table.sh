#!/usr/bin/env bash
# CPU seconds per memtablerep_bench benchmark, for the memtable table of
# docs/BENCHMARKS.md on a loaded machine:
#
#   scripts/memtable_cpu_table.sh NUM_OPERATIONS ROUNDS REPS...
#
# For each round, item size (0, 50) and rep, one process runs
# fillrandom,readrandom,fillseq,readseq (--num_scans=3, one thread) and one
# runs readwrite (--num_threads=2: one writer, one reader), both under
# scripts/memtablecpu, whose clock is the process's CPU time, so each
# benchmark's "Elapsed time" is its CPU time. readrandom reads the
# fillrandom memtable, readseq the fillseq one. BIN=path runs that
# memtablecpu binary instead of building one; LOGDIR=dir keeps the raw
# outputs (a rerun reuses every complete log); READWRITE=0 skips readwrite.
# Prints one Markdown row per rep and round: CPU seconds of each benchmark,
# readwrite's CPU ns per operation (its writer runs for as long as its
# reader does, so its operation count varies: reads plus writes), B/entry
# after fillrandom and the first process's peak RSS.
set -euo pipefail
num=$1
rounds=$2
shift 2
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${BIN:-"$tmp/memtablecpu"}
[ -n "${BIN:-}" ] || go build -o "$bin" ./scripts/memtablecpu
logs=${LOGDIR:-$tmp}
mkdir -p "$logs"

run() { # log args...
  local log=$1
  shift
  if [ -n "${LOGDIR:-}" ] && grep -q '^peak_rss_kb' "$log" 2>/dev/null; then
    echo "reusing $log" >&2
    return
  fi
  echo "$(date +%T) $log" >&2
  /usr/bin/time -f 'peak_rss_kb %M' "$bin" "$@" >"$log.tmp" 2>&1 || echo "failed: $log" >&2
  mv "$log.tmp" "$log"
}

echo "| item | rep | round | fillrandom s | readrandom s | fillseq s | readseq s (3 scans) | readwrite ns/op (2 threads) | B/entry | peak RSS MiB |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
for round in $(seq 1 "$rounds"); do
  for item in 0 50; do
    for rep in "$@"; do
      name="$(echo "$rep" | tr -c 'a-zA-Z0-9_\n' '_')-item$item-round$round"
      run "$logs/$name.log" --memtablerep="$rep" --num_operations="$num" --item_size="$item" \
        --benchmarks=fillrandom,readrandom,fillseq,readseq --num_scans=3
      rw=/dev/null
      if [ "${READWRITE:-1}" != 0 ]; then
        rw="$logs/$name-readwrite.log"
        run "$rw" --memtablerep="$rep" --num_operations="$num" --item_size="$item" \
          --benchmarks=readwrite --num_threads=2
      fi
      row=$(cat "$logs/$name.log" "$rw" | awk -v n="$num" -v item="$item" '
        BEGIN {cpu["readwrite"] = "-"}
        /^Running / {b = $2}
        /^Elapsed time:/ {cpu[b] = sprintf("%.2f", $3 / 1e6); if (b == "readwrite") rwus = $3}
        /^Total bytes written:/ && b == "readwrite" {writes = $4 * 1048576 / (item + 17)}
        /^ApproximateMemoryUsage:/ && b == "readwrite" {cpu[b] = sprintf("%.0f", rwus * 1000 / (n + writes))}
        /^ApproximateMemoryUsage:/ && b == "fillrandom" {mem = sprintf("%.1f", $2 / n)}
        /^peak_rss_kb/ && rss == "" {rss = sprintf("%.0f", $2 / 1024)}
        END {printf "%s | %s | %s | %s | %s | %s | %s", cpu["fillrandom"], cpu["readrandom"], cpu["fillseq"], cpu["readseq"], cpu["readwrite"], mem, rss}')
      echo "| $item | $rep | $round | $row |"
    done
  done
done

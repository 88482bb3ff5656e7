#!/usr/bin/env bash
# A/B: our db_bench --engine=rocksdb (A) against Debian's C++ db_bench 7.8.3
# (B) on the same librocksdb, with the same flags and seed.
#
#   scripts/ab_rocksdb.sh [NUM] [ROUNDS]
#
# Each round runs, alternating A B for every step:
#   fills  fillseq and fillrandom, each into a fresh DB of its own side;
#   reads  readseq, readrandom, seekrandom on one shared DB made by fillseq,
#          and readrandom on one shared DB made by fillrandom, both built once
#          by the C++ db_bench and settled with waitforcompaction, opened
#          with --use_existing_db=1. Both sides therefore read the very same
#          LSM tree (same files, same levels), and read runs never overlap
#          a background compaction.
# The two readrandom results are reported apart: "readrandom" is the
# standard one (on the fillrandom DB, ~63% of keys found) and
# "readrandom_seqdb" the one on the fillseq DB (every key found). The found
# counts of both sides are compared, since the key streams must match.
#
# Output: per benchmark the median ops/s over rounds of each side, the ratio
# of the medians (A/B), and the per-round ratios. READS=N adds --reads=N to
# the read runs (default: db_bench's, i.e. NUM); OURS_BIN=path runs that
# binary instead of building ./cmd/db_bench. DB files live in /dev/shm
# when it exists, so runs measure CPU, not the disk.
set -euo pipefail
num=${1:-1000000}
rounds=${2:-3}
reads=${READS:-}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
ours=${OURS_BIN:-"$tmp/db_bench"}
[ -n "${OURS_BIN:-}" ] || go build -tags rocksdb -o "$ours" ./cmd/db_bench
cpp=/usr/bin/db_bench
dir=$(mktemp -d /dev/shm/ab-XXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$dir" "$tmp"' EXIT

common=(--num="$num" --seed=1 --progress_reports=false --compression_type=none --threads=1)
readflags=(--use_existing_db=1)
[ -n "$reads" ] && readflags+=(--reads="$reads")

# bench SIDE DB LABELSUFFIX ARGS...: one run; prints "side label ops found".
bench() {
  local side=$1 db=$2 suffix=$3
  shift 3
  local bin=("$cpp")
  [ "$side" = ours ] && bin=("$ours" --engine=rocksdb)
  "${bin[@]}" --db="$db" "${common[@]}" "$@" 2>/dev/null |
    awk -v side="$side" -v sfx="$suffix" '$2==":" && $4=="micros/op" {
      found = "-"
      if (match($0, /\([0-9]+ of [0-9]+ found\)/)) found = substr($0, RSTART + 1, RLENGTH - 8)
      print side, $1 sfx, $5, found
    }'
}

echo "preparing shared read DBs (num=$num) ..." >&2
"$cpp" --db="$dir/seqdb" "${common[@]}" --benchmarks=fillseq,waitforcompaction >/dev/null 2>&1
"$cpp" --db="$dir/randdb" "${common[@]}" --benchmarks=fillrandom,waitforcompaction >/dev/null 2>&1

out=$(for r in $(seq "$rounds"); do
  echo "round $r/$rounds ..." >&2
  for side in ours cpp; do bench "$side" "$dir/fill-$side" "" --benchmarks=fillseq; done
  for side in ours cpp; do bench "$side" "$dir/fill-$side" "" --benchmarks=fillrandom; done
  for side in ours cpp; do
    bench "$side" "$dir/seqdb" "" --benchmarks=readseq "${readflags[@]}"
  done
  for side in ours cpp; do
    bench "$side" "$dir/seqdb" "_seqdb" --benchmarks=readrandom "${readflags[@]}"
  done
  for side in ours cpp; do
    bench "$side" "$dir/seqdb" "" --benchmarks=seekrandom "${readflags[@]}"
  done
  for side in ours cpp; do
    bench "$side" "$dir/randdb" "" --benchmarks=readrandom "${readflags[@]}"
  done
done)

median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print 0}'; }

echo "num=$num rounds=$rounds reads=${reads:-num}: median ops/sec per side, ratio = ours/C++ of the medians"
printf '%-17s %11s %11s %7s  %s\n' benchmark ours cpp ratio "per-round ratios"
for b in fillseq fillrandom readrandom readseq seekrandom readrandom_seqdb; do
  o=$(echo "$out" | awk -v b="$b" '$1=="ours" && $2==b {print $3}' | median)
  c=$(echo "$out" | awk -v b="$b" '$1=="cpp" && $2==b {print $3}' | median)
  per=$(paste <(echo "$out" | awk -v b="$b" '$1=="ours" && $2==b {print $3}') \
              <(echo "$out" | awk -v b="$b" '$1=="cpp" && $2==b {print $3}') |
        awk '$2 > 0 {printf "%.2f ", $1/$2}')
  printf '%-17s %11s %11s %7.3f  %s\n' "$b" "$o" "$c" "$(echo "$o $c" | awk '$2 > 0 {print $1/$2; exit} {print 0}')" "$per"
  fo=$(echo "$out" | awk -v b="$b" '$1=="ours" && $2==b && $4!="-" {print $4}' | sort -u | tr '\n' ' ')
  fc=$(echo "$out" | awk -v b="$b" '$1=="cpp" && $2==b && $4!="-" {print $4}' | sort -u | tr '\n' ' ')
  if [ "$fo" != "$fc" ]; then
    echo "  WARNING: $b found counts differ: ours [$fo] cpp [$fc]"
  fi
done

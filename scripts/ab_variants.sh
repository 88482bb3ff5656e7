#!/usr/bin/env bash
# Several builds of our db_bench --engine=rocksdb against Debian's C++
# db_bench 7.8.3 in the same rounds, on one shared settled DB:
#
#   scripts/ab_variants.sh ROUNDS LABEL=BINARY [LABEL=BINARY ...]
#
# A DB of NUM keys (default 1000000) is made once by the C++ db_bench with
# fillrandom and settled with waitforcompaction (in /dev/shm when it
# exists). Each round runs C++ db_bench and every binary once on it with
# --use_existing_db=1, the order rotating by one place a round so that no
# side always runs first; BENCH (default readrandom) with READS (default
# 500000) operations, plus the flags in EXTRA (e.g. EXTRA=--histogram=1).
# Per binary it prints the per-round ratios ours / C++ of the same round,
# sorted, and their median. Environment variables set on the command line
# reach every binary (e.g. GODEBUG).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 ROUNDS LABEL=BINARY [LABEL=BINARY ...]" >&2; exit 2; }
rounds=$1
shift
num=${NUM:-1000000}
bench=${BENCH:-readrandom}
reads=${READS:-500000}
read -r -a extra <<<"${EXTRA:-}"
cpp=/usr/bin/db_bench
dir=$(mktemp -d /dev/shm/abv-XXXX 2>/dev/null || mktemp -d)
out=$(mktemp)
trap 'rm -rf "$dir" "$out"' EXIT

common=(--num="$num" --seed=1 --progress_reports=false --compression_type=none --threads=1)
echo "preparing the shared DB (num=$num) ..." >&2
"$cpp" --db="$dir/db" "${common[@]}" --benchmarks=fillrandom,waitforcompaction >/dev/null 2>&1

# opsec LABEL=BINARY|cpp: one run's ops/sec.
opsec() {
  local bin=("$cpp")
  [ "$1" = cpp ] || bin=("${1#*=}" --engine=rocksdb)
  "${bin[@]}" --db="$dir/db" "${common[@]}" --use_existing_db=1 --benchmarks="$bench" --reads="$reads" "${extra[@]}" 2>/dev/null |
    awk '$4=="micros/op" {print $5}'
}

sides=(cpp "$@")
n=${#sides[@]}
for r in $(seq "$rounds"); do
  echo "round $r/$rounds ..." >&2
  for i in $(seq 0 $((n - 1))); do
    s=${sides[$(((i + r) % n))]}
    echo "$r ${s%%=*} $(opsec "$s")" >>"$out"
  done
done

echo "$bench ${EXTRA:-}, reads=$reads, num=$num, $rounds rounds: per-round ratios ours / C++ (sorted), median"
for s in "$@"; do
  label=${s%%=*}
  awk -v l="$label" '$2=="cpp" {c[$1]=$3} $2==l {o[$1]=$3} END {for (r in o) if (c[r] > 0) printf "%.3f\n", o[r]/c[r]}' "$out" |
    sort -n | awk -v l="$label" '{a[NR]=$1; s=s " " $1} END {
      m = NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2
      printf "%-12s median %.3f :%s\n", l, m, s }'
done

#!/usr/bin/env bash
# Issue 18's table: db_bench's core benchmarks at its defaults on several
# engines, engines alternated within each round:
#
#   scripts/defaults_table.sh NUM THREADS ROUNDS ENGINE...
#
# Each engine runs one db_bench process per round with --num=NUM --seed=1
# --threads=THREADS --histogram=1 and no other option flags, over
#   fillseq,fillrandom,overwrite,updaterandom,readrandom,readseq,readreverse,
#   seekrandom,readwhilewriting,readrandomwriterandom,multireadrandom,
#   deleterandom
# (deleterandom last: it empties the DB). BIN=path runs that db_bench (it
# must be built with -tags rocksdb when an engine is rocksdb); DB=dir is the
# database directory (default /dev/shm/defaults_table); LOGDIR=dir keeps the
# raw outputs; READS=n, WRITES=n and DELETES=n add --reads, --writes and
# --deletes (for runs whose threads multiply the work); SCAN_REPEATS=n runs
# readseq and readreverse n times each in place (db_bench's readseq[Xn]) and
# takes the median line db_bench prints after the n runs, for rounds whose
# scans last a tenth of a second, where one run is one draw of a per-entry
# cost that moved by half between processes of one binary (BENCHMARKS.md);
# TIMEBIN=path is the GNU time that measures each run (default
# /usr/bin/time). Prints one Markdown row per benchmark and engine: ops/sec
# of every round, then P99 and P99.9 of the last round in microseconds (of
# a repeated scan, its first run); a row per benchmark with the first
# engine's ops/sec over each other engine's, per round; and a last row per
# engine with user and system CPU seconds, peak RSS and the host's core
# round trip per round. The round trip (scripts/coreping, run just before
# and just after each db_bench process; COREPING=path runs that binary) is
# how long a cache line takes from one CPU to the other and back; on a
# virtual machine it changes with where the host puts the virtual CPUs (on
# the 2-vCPU machine of docs/BENCHMARKS.md, about 100-190 ns or 400-500
# ns), and multi-threaded runs follow it, so a round whose engines saw
# different round trips compares different machines. Exits 2 on bad
# arguments, 1 when a db_bench run failed (the table is still
# printed, that run's cells ?).
set -euo pipefail
usage="usage: scripts/defaults_table.sh NUM THREADS ROUNDS ENGINE..."
if [ $# -lt 4 ]; then
  echo "$usage" >&2
  exit 2
fi
# positive WHAT VALUE exits 2 unless VALUE is a positive integer.
positive() {
  if ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
    echo "defaults_table.sh: $1'$2' is not a positive integer; $usage" >&2
    exit 2
  fi
}
for n in "$1" "$2" "$3"; do
  positive "" "$n"
done
[ -z "${SCAN_REPEATS:-}" ] || positive "SCAN_REPEATS " "$SCAN_REPEATS"
num=$1
threads=$2
rounds=$3
shift 3
failed=0
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${BIN:-"$tmp/db_bench"}
[ -n "${BIN:-}" ] || go build -tags rocksdb -o "$bin" ./cmd/db_bench
ping=${COREPING:-"$tmp/coreping"}
[ -n "${COREPING:-}" ] || go build -o "$ping" ./scripts/coreping
db=${DB:-/dev/shm/defaults_table}
logs=${LOGDIR:-$tmp}
mkdir -p "$logs"
benchmarks=fillseq,fillrandom,overwrite,updaterandom,readrandom,readseq,readreverse,seekrandom,readwhilewriting,readrandomwriterandom,multireadrandom,deleterandom
extra=()
[ -z "${READS:-}" ] || extra+=("--reads=$READS")
[ -z "${WRITES:-}" ] || extra+=("--writes=$WRITES")
[ -z "${DELETES:-}" ] || extra+=("--deletes=$DELETES")
list=$benchmarks
if [ -n "${SCAN_REPEATS:-}" ]; then
  list=${list/readseq/"readseq[X$SCAN_REPEATS]"}
  list=${list/readreverse/"readreverse[X$SCAN_REPEATS]"}
fi

for round in $(seq 1 "$rounds"); do
  for engine in "$@"; do
    log="$logs/$engine.t$threads.n$num.r$round.log"
    echo "$(date +%T) $log" >&2
    rm -rf "$db"
    before=$("$ping" | awk '{ print $6 }') || before="?"
    "${TIMEBIN:-/usr/bin/time}" -f 'cpu_rss %U %S %M' "$bin" --engine="$engine" --db="$db" \
      --benchmarks="$list" --num="$num" --threads="$threads" --seed=1 \
      --histogram=1 --progress_reports=false "${extra[@]}" >"$log" 2>&1 || {
      echo "failed: $log" >&2
      failed=1
    }
    after=$("$ping" | awk '{ print $6 }') || after="?"
    echo "core_round_trip ${before:-?} ${after:-?}" >>"$log"
  done
done
rm -rf "$db"

# opsof ENGINE ROUND BENCHMARK prints the benchmark's ops/sec in that
# round's log: its "[MEDIAN n runs]" line when it ran repeated, else the last
# result line of that name; nothing if none.
opsof() {
  awk -v b="$3" '$1 == b && ($2 == ":" || $2 == "[MEDIAN") {
      for (i = 3; i < NF; i++) if ($(i+1) ~ /^ops\/sec;?$/) { if ($2 == ":") last = $i; else median = $i }
    }
    END { if (median != "") print median; else if (last != "") print last }' \
    "$logs/$1.t$threads.n$num.r$2.log"
}

echo "| benchmark | engine | ops/sec (rounds) | P99 us | P99.9 us |"
echo "|---|---|---:|---:|---:|"
for b in ${benchmarks//,/ }; do
  for engine in "$@"; do
    log="$logs/$engine.t$threads.n$num.r$rounds.log"
    ops=""
    for round in $(seq 1 "$rounds"); do
      o=$(opsof "$engine" "$round" "$b")
      ops="$ops${ops:+ / }${o:-?}"
    done
    # Percentiles of the last round: the first "Percentiles:" line after
    # the benchmark's result line and before the next result line; "? ?"
    # when it has none.
    pct=$(awk -v b="$b" 'on && $2 == ":" && /ops\/sec/ { exit }
      $1 == b && $2 == ":" && /ops\/sec/ { on = 1; next }
      on && /^Percentiles:/ { for (i = 1; i < NF; i++) { if ($i == "P99:") p99 = $(i+1); if ($i == "P99.9:") p999 = $(i+1) }; print p99, p999; done = 1; exit }
      END { if (!done) print "? ?" }' "$log")
    echo "| $b | $engine | $ops | ${pct% *} | ${pct#* } |"
  done
done

if [ $# -gt 1 ]; then
  first=$1
  header="| benchmark |"
  rule="|---|"
  for other in "${@:2}"; do
    header="$header $first / $other (rounds) |"
    rule="$rule---:|"
  done
  echo
  echo "$header"
  echo "$rule"
  for b in ${benchmarks//,/ }; do
    row="| $b |"
    for other in "${@:2}"; do
      cell=""
      for round in $(seq 1 "$rounds"); do
        r=$(awk -v a="$(opsof "$first" "$round" "$b")" -v c="$(opsof "$other" "$round" "$b")" \
          'BEGIN { if (a > 0 && c > 0) printf "%.2fx", a / c; else printf "?" }')
        cell="$cell${cell:+ / }$r"
      done
      row="$row $cell |"
    done
    echo "$row"
  done
fi
echo
echo "| engine | user + sys CPU s, peak RSS, core round trip before-after (rounds) |"
echo "|---|---|"
for engine in "$@"; do
  cells=""
  for round in $(seq 1 "$rounds"); do
    log="$logs/$engine.t$threads.n$num.r$round.log"
    c=$(awk '$1 == "cpu_rss" { printf "%s + %s s, %d MB", $2, $3, $4 / 1024 }
      $1 == "core_round_trip" { printf ", %s-%s ns", $2, $3 }' "$log")
    cells="$cells${cells:+ / }${c:-?}"
  done
  echo "| $engine | $cells |"
done
exit $failed

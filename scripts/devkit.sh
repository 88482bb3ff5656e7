#!/usr/bin/env bash
# Issue 18's defaults table on a borrowed machine that has neither Go nor
# RocksDB installed:
#
#   scripts/devkit.sh build            # here: assemble out/devkit
#   scripts/devkit.sh run SPEC...      # there: run the tables, logs in $OUT
#
# build compiles db_bench with -tags rocksdb (stripped) and scripts/coreping
# into out/devkit, beside every shared library db_bench links, the dynamic
# loader and GNU time, so that the kit runs wherever the kernel does (the
# loader is invoked directly, so the other machine's libc does not matter).
# Carry out/devkit (about 45 MB) to the other machine with the work tree.
#
# run takes one SPEC per table, NUM:THREADS:SECONDS[:READS], and runs
# scripts/defaults_table.sh NUM THREADS 1 native pebble rocksdb under
# timeout SECONDS with --reads=READS when given, one after another. Each
# table's Markdown goes to $OUT/tNUM.THREADS.md and its raw logs to
# $OUT/tNUM.THREADS/, so a table cut short by its timeout still returns
# the engines that finished. Exits 2 on bad arguments.
set -euo pipefail
usage="usage: scripts/devkit.sh build | run NUM:THREADS:SECONDS[:READS]..."
cd "$(dirname "$0")/.."
kit=$PWD/out/devkit
case "${1:-}" in
build)
  rm -rf "$kit"
  mkdir -p "$kit/lib"
  go build -tags rocksdb -ldflags="-s -w" -o "$kit/db_bench" ./cmd/db_bench
  go build -o "$kit/coreping" ./scripts/coreping
  for lib in $(ldd "$kit/db_bench" | awk '$3 ~ /^\// { print $3 }') /lib64/ld-linux-x86-64.so.2; do
    cp -L "$lib" "$kit/lib/"
  done
  cp -L /usr/bin/time "$kit/lib/gnutime"
  du -sh "$kit"
  ;;
run)
  shift
  [ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
  for spec in "$@"; do
    [[ $spec =~ ^[1-9][0-9]*:[1-9][0-9]*:[1-9][0-9]*(:[1-9][0-9]*)?$ ]] ||
      { echo "devkit.sh: bad spec '$spec'; $usage" >&2; exit 2; }
  done
  [ -n "${OUT:-}" ] || { echo "devkit.sh: run needs OUT, the folder for the tables" >&2; exit 2; }
  [ -x "$kit/db_bench" ] || { echo "devkit.sh: no $kit/db_bench; run 'scripts/devkit.sh build' first" >&2; exit 2; }
  # wrap NAME PROGRAM writes $kit/NAME.sh, which runs PROGRAM through the
  # kit's loader and libraries.
  wrap() {
    printf '#!/bin/sh\nexec %s --library-path %s %s "$@"\n' \
      "$kit/lib/ld-linux-x86-64.so.2" "$kit/lib" "$2" >"$kit/$1.sh"
    chmod +x "$kit/$1.sh"
  }
  wrap db_bench "$kit/db_bench"
  wrap gnutime "$kit/lib/gnutime"
  echo "cpus $(nproc), $(uname -r), $("$kit/coreping")"
  for spec in "$@"; do
    IFS=: read -r num threads secs reads <<<"$spec"
    echo "== $num keys, $threads threads, $(date +%T)"
    rc=0
    BIN=$kit/db_bench.sh TIMEBIN=$kit/gnutime.sh COREPING=$kit/coreping LOGDIR=$OUT/t$num.$threads \
      DB=/dev/shm/devkit READS=${reads:-} timeout "$secs" \
      scripts/defaults_table.sh "$num" "$threads" 1 native pebble rocksdb \
      >"$OUT/t$num.$threads.md" 2>"$OUT/t$num.$threads.err" || rc=$?
    echo "rc $rc $(date +%T)"
    cat "$OUT/t$num.$threads.md"
  done
  rm -rf /dev/shm/devkit
  ;;
*)
  echo "$usage" >&2
  exit 2
  ;;
esac

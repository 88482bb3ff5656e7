#!/usr/bin/env bash
# Where a process's resident memory is at its peak:
#
#   scripts/peak_rss.sh OUT COMMAND [ARG...]
#
# Runs COMMAND (its stdout to OUT.out, its stderr to OUT.err), reads
# /proc/PID/status every 20 ms and, at every new high of VmRSS, copies
# /proc/PID/smaps to OUT.smaps, so that OUT.smaps is the mapping table at
# the highest sample. OUT.series has one line a sample: seconds since the
# start, VmRSS, RssAnon, RssFile and RssShmem in kB. The last line printed
# is the peak sample with its split and the peak's mappings summed by kind:
# anonymous huge pages (2 MiB each, AnonHugePages: the memtable arenas of
# internal/hugemem), other anonymous memory (the Go heap, malloc), shared
# file mappings (rw-s: the mapped WAL) and the mapped files, one line each.
# A sample misses a peak shorter than 20 ms; /usr/bin/time's %M (VmHWM)
# does not, so run COMMAND under it to have both.
set -euo pipefail
out=$1
shift
"$@" >"$out.out" 2>"$out.err" &
pid=$!
# Under /usr/bin/time (or any wrapper) the process to watch is its child.
sleep 0.05
child=$(cat "/proc/$pid/task/$pid/children" 2>/dev/null || true)
watch=${child%% *}
watch=${watch:-$pid}
start=$(date +%s.%N)
peak=0
peakline=""
: >"$out.series"
while kill -0 "$pid" 2>/dev/null; do
  if status=$(cat "/proc/$watch/status" 2>/dev/null); then
    rss=$(awk '/^VmRSS:/{r=$2} /^RssAnon:/{a=$2} /^RssFile:/{f=$2} /^RssShmem:/{s=$2}
      END{print r+0, a+0, f+0, s+0}' <<<"$status")
    now=$(date +%s.%N)
    line="$(awk -v a="$start" -v b="$now" 'BEGIN{printf "%.2f", b-a}') $rss"
    echo "$line" >>"$out.series"
    if [ "${rss%% *}" -gt "$peak" ]; then
      peak=${rss%% *}
      peakline=$line
      cp "/proc/$watch/smaps" "$out.smaps.tmp" 2>/dev/null && mv "$out.smaps.tmp" "$out.smaps"
    fi
  fi
  sleep 0.02
done
wait "$pid" || true
echo "peak: at ${peakline%% *} s VmRSS RssAnon RssFile RssShmem kB: ${peakline#* }"
[ -f "$out.smaps" ] || exit 0
awk '
  /^[0-9a-f]+-[0-9a-f]+ / {
    perm = $2; name = (NF >= 6) ? $6 : ""
    kind = (name == "" || name ~ /^\[/) ? "anon" : (perm ~ /s$/ ? "shared " name : "file " name)
    next
  }
  /^Rss:/ { rss[kind] += $2 }
  /^AnonHugePages:/ { if (kind == "anon") huge += $2 }
  END {
    printf "  anonymous huge pages  %8d kB\n", huge
    printf "  other anonymous       %8d kB\n", rss["anon"] - huge
    for (k in rss) if (k != "anon" && rss[k] >= 512) printf "  %8d kB  %s\n", rss[k], k | "sort -rn"
    close("sort -rn")
  }' "$out.smaps"

#!/bin/sh
# A stand-in db_bench for the runner tests: prints db_bench result lines and,
# when asked, writes --report_json records whose checksum comes from
# FAKE_CHECKSUM. FAKE_EXIT makes it fail; FAKE_SLEEP makes it slow;
# FAKE_PUT_ERROR makes fillrandom report an error and exit 0 nonetheless.
json=""
engine=""
for a in "$@"; do
  case "$a" in
    --report_json=*) json="${a#--report_json=}" ;;
    --engine=*) engine="${a#--engine=}" ;;
  esac
done
sleep "${FAKE_SLEEP:-0}"
sum="${FAKE_CHECKSUM:-00000000000000AA}"
echo "Fake:       version 1.2.3"
echo "WARNING: --fake_flag is accepted for compatibility but has no effect here"
echo "------------------------------------------------"
[ -n "$FAKE_PUT_ERROR" ] && echo "put error: $FAKE_PUT_ERROR"
[ "$engine" = "odd" ] && sum="00000000000000BB"
echo "2026-11-30T00:00:00.000000Z fillrandom   :       2.000 micros/op 500000 ops/sec 0.200 seconds 100000 operations;   55.3 MB/s"
echo "2026-11-30T00:00:00.300000Z readrandom   :       1.000 micros/op 1000000 ops/sec 0.100 seconds 100000 operations;   90.1 MB/s (63000 of 100000 found)"
echo ""
if [ -n "$json" ]; then
  echo '{"benchmark":"fillrandom","engine":"x","threads":1,"ops":100000,"seconds":0.2,"micros_per_op":2,"ops_per_sec":500000,"bytes":0,"mb_per_sec":0,"start_time":"","end_time":""}' > "$json"
  echo '{"benchmark":"readrandom","engine":"x","threads":1,"ops":100000,"seconds":0.1,"micros_per_op":1,"ops_per_sec":1000000,"bytes":0,"mb_per_sec":0,"reads":100000,"found":63000,"checksum":"'"$sum"'","start_time":"","end_time":"","latency_us":{"read":{"count":100000,"mean":1,"p50":1,"p75":1,"p99":3,"p99.9":9,"p99.99":20,"max":40}}}' >> "$json"
fi
exit "${FAKE_EXIT:-0}"

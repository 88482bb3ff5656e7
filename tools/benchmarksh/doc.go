// Package benchmarksh runs RocksDB 7.8.3's tools/benchmark.sh, unmodified,
// with this project's db_bench as the ./db_bench it calls, and reads the
// report.tsv it writes.
//
// Contract:
//   - Run executes the script from a scratch directory that holds the
//     db_bench binary (or, with Config.Engine, a wrapper that runs it with
//     that --engine), with the script's own environment variables
//     (NUM_KEYS, DB_DIR, WAL_DIR, OUTPUT_DIR, NUM_THREADS, ...). The
//     script reads iostat and vmstat output in the background and stops
//     them with killall; Run puts no-op iostat, vmstat and killall first on
//     the script's PATH, so a run neither needs those tools nor stops any
//     process it did not start.
//   - ReadReport parses report.tsv: the '#' comment lines, then a header
//     row naming the tab-separated fields, then one row per job. CheckRow
//     reports the fields that should hold numbers and do not (the script
//     writes "failed" or leaves fields empty when it cannot parse a
//     db_bench result).
//   - Jobs lists the jobs this db_bench runs on every engine; the merge
//     jobs (mergerandom, readwhilemerging, fwdrangewhilemerging,
//     revrangewhilemerging) need Merge and are not on it yet.
package benchmarksh

package dbbench

import (
	"sort"
	"strings"
)

// benchmarkDocs says in one line what each registered benchmark does; it
// makes the catalogue in --benchmarks' help and the list in
// docs/BENCHMARK_LIST.md. TestBenchmarkDocs checks that it names exactly
// the registry's benchmarks.
var benchmarkDocs = map[string]string{
	"fillseq":                       "write --num entries with keys in order into a fresh DB",
	"fillbatch":                     "fillseq in batches of 1000 entries",
	"fillrandom":                    "write --num entries with random keys into a fresh DB",
	"filluniquerandom":              "write each of --num keys once, in a shuffled order (one thread)",
	"fillanddeleteuniquerandom":     "filluniquerandom that deletes disposable entries (--disposable_entries_*)",
	"fillsync":                      "fillrandom of --num/1000 entries, each write synced",
	"fill100K":                      "fillrandom of --num/1000 entries with 100 KB values",
	"fillseqdeterministic":          "fill level by level with sequential keys, then compact deterministically",
	"filluniquerandomdeterministic": "fill level by level with shuffled keys, then compact deterministically",
	"overwrite":                     "write random keys into the existing DB",
	"updaterandom":                  "read a random key, then write it back with a new value",
	"xorupdaterandom":               "read a random key, XOR a new value into it and write it back",
	"appendrandom":                  "read a random key and write it back with a value appended",
	"randomreplacekeys":             "delete and rewrite keys drawn from a normal distribution (--numdistinct, --stddev)",
	"deleteseq":                     "delete keys in order",
	"deleterandom":                  "delete random keys",
	"readrandomwriterandom":         "mix random reads and writes by --readwritepercent",
	"randomwithverify":              "reads, writes and deletes of three-key groups, checking each group reads as one",
	"timeseries":                    "one writer of time-stamped keys beside readers (or deleters) of random ids",
	"mixgraph":                      "Get/Put/Seek mix with modelled key, value-size and scan-length distributions",
	"fillseekseq":                   "fillseq, then seek to each key in order and step --seek_nexts times",
	"readseq":                       "scan the DB forward",
	"readreverse":                   "scan the DB backward",
	"readtocache":                   "one-thread forward scan of every key, to warm the caches",
	"nextwithkey":                   "forward scan of keys only, never values (ToplingDB's; this project's)",
	"readrandom":                    "read random keys",
	"readmissing":                   "read keys one byte longer than any written, so every read misses",
	"readrandomsmall":               "readrandom of --reads/1000 keys",
	"readrandomfast":                "read random keys under a power-of-two mask, counting the ones past --num",
	"multireadrandom":               "read random keys in batches of --batch_size (MultiGet)",
	"newiterator":                   "create and destroy iterators",
	"seekrandom":                    "seek to random keys, then step --seek_nexts times",
	"readwhilewriting":              "readrandom beside one thread writing random keys",
	"newiteratorwhilewriting":       "newiterator beside one thread writing random keys",
	"seekrandomwhilewriting":        "seekrandom beside one thread writing random keys",
	"readwhilescanning":             "readrandom beside one thread scanning the DB over and over",
	"readwhilemerging":              "readrandom beside one thread merging into random keys",
	"seekrandomwhilemerging":        "seekrandom beside one thread merging into random keys",
	"mergerandom":                   "merge values into random keys (--merge_operator)",
	"readrandommergerandom":         "mix random reads and merges by --mergereadpercent",
	"getmergeoperands":              "look up keys holding many merge operands, with Get and with their operands",
	"readrandomoperands":            "read the merge operands of random keys",
	"randomtransaction":             "run transactions over several keys and check the sets stay consistent",
	"approximatesizerandom":         "ask the DB for the approximate size of random key ranges",
	"readtorowcache":                "read existing keys through the row cache",
	"compact":                       "compact the whole key range, timed",
	"compactall":                    "compact the whole key range",
	"compact0":                      "compact the files of L0 into the next level holding data (pebble: their key range, to its last level)",
	"compact1":                      "compact the files of the first level below L0 into the next holding data (pebble: as compact0)",
	"flush":                         "flush the memtables",
	"waitforcompaction":             "wait until no flush or compaction is pending or running",
	"resetstats":                    "reset the DB's cumulative statistics",
	"stats":                         "print the DB's statistics (rocksdb.stats)",
	"levelstats":                    "print files and bytes per level (rocksdb.levelstats)",
	"sstables":                      "print the table files (rocksdb.sstables)",
	"memstats":                      "print the memtables' sizes and entry counts",
	"block_cache_entry_stats":       "print the block cache's entries by kind",
	"stats_history":                 "print the statistics history the DB kept",
	"verify":                        "check that the DB holds exactly what --truth_db holds",
	"verifychecksum":                "verify the checksums of every table block",
	"verifyfilechecksums":           "verify every table file against its recorded file checksum",
	"backup":                        "back the DB up to --backup_dir",
	"restore":                       "restore the DB from --backup_dir into --restore_dir",
	"replay":                        "replay the operations of --trace_file",
	"crc32c":                        "CRC32C of a --block_size buffer, repeated",
	"xxhash":                        "xxHash32 of a --block_size buffer, repeated",
	"xxhash64":                      "xxHash64 of a --block_size buffer, repeated",
	"xxh3":                          "XXH3 of a --block_size buffer, repeated",
	"acquireload":                   "atomic acquire loads, 1000 per operation",
	"compress":                      "compress a --block_size block with --compression_type, repeated",
	"uncompress":                    "uncompress a --block_size block, repeated",
	"profiles":                      "ZoneTree's profiles workload (this project's; --profiles_* flags)",
	"ycsbload":                      "YCSB's load phase: --recordcount records into a fresh DB (this project's)",
	"ycsba":                         "YCSB workload A: 50% reads, 50% updates, Zipfian keys (this project's)",
	"ycsbb":                         "YCSB workload B: 95% reads, 5% updates, Zipfian keys (this project's)",
	"ycsbc":                         "YCSB workload C: reads only, Zipfian keys (this project's)",
	"ycsbd":                         "YCSB workload D: 95% reads of the latest keys, 5% inserts (this project's)",
	"ycsbe":                         "YCSB workload E: 95% short scans, 5% inserts, Zipfian keys (this project's)",
	"ycsbf":                         "YCSB workload F: 50% reads, 50% read-modify-writes, Zipfian keys (this project's)",
}

// benchmarkCatalogue is the catalogue appended to --benchmarks' help: each
// name with its line, the ones not built marked so.
func benchmarkCatalogue() string {
	names := make([]string, 0, len(benchmarkDocs))
	for n := range benchmarkDocs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(" Benchmarks (\"not built\": skipped with a notice):")
	for _, n := range names {
		b.WriteString(" " + n + " -- " + benchmarkDocs[n])
		if benchmarks[n].notBuilt {
			b.WriteString(" (not built)")
		}
		b.WriteString(";")
	}
	return b.String()
}

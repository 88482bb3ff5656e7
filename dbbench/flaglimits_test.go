package dbbench

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench/flags"
	"github.com/godbbench/godbbench/internal/gflags"
	"github.com/godbbench/godbbench/options"
)

// TestFlagLimits runs a value just outside each flagLimits range (and NaN)
// through Main: exit 1, the limit's message alone on stderr, nothing on
// stdout, no panic, and no database directory created.
func TestFlagLimits(t *testing.T) {
	for _, l := range flagLimits {
		bad := []float64{l.min - 1}
		if l.max != inf {
			bad = append(bad, l.max+1)
		}
		for _, v := range bad {
			text := strconv.FormatFloat(v, 'f', -1, 64)
			want := "Invalid value for --" + l.name + ": " + text + ", must be " + l.rangeText() + "\n"
			if l.cxx != "" {
				want = strings.ReplaceAll(l.cxx, "%s", text) + "\n"
			}
			db := filepath.Join(t.TempDir(), "db")
			var out, errb bytes.Buffer
			code := Main([]string{"--engine=native", "--db=" + db, "--seed=1", "--num=10",
				"--benchmarks=fillseq,readrandom", "--" + l.name + "=" + text}, &out, &errb)
			if code != 1 || errb.String() != want || out.Len() != 0 {
				t.Errorf("--%s=%s: exit %d, stdout %q, stderr %q, want exit 1, stderr %q",
					l.name, text, code, out.String(), errb.String(), want)
			}
			if _, err := os.Stat(db); !os.IsNotExist(err) {
				t.Errorf("--%s=%s: %s was created", l.name, text, db)
			}
		}
	}
}

// TestFlagLimitsAcceptTheirBounds: the ends of each range pass the check.
func TestFlagLimitsAcceptTheirBounds(t *testing.T) {
	for _, l := range flagLimits {
		ends := []float64{l.min}
		if l.max != inf {
			ends = append(ends, l.max)
		}
		for _, v := range ends {
			fs := gflags.NewFlagSet("db_bench", Version)
			fs.SetOutput(io.Discard, io.Discard)
			flags.Register(fs)
			arg := "--" + l.name + "=" + strconv.FormatFloat(v, 'f', -1, 64)
			if _, err := fs.Parse([]string{arg}); err != nil {
				t.Fatalf("%s: %v", arg, err)
			}
			if err := checkFlagLimits(fs); err != nil {
				t.Errorf("%s: %v", arg, err)
			}
		}
	}
}

// TestValueSizeMinAboveMax: with a non-fixed distribution the smallest value
// size must not exceed the largest (db_bench aborts on an assertion).
func TestValueSizeMinAboveMax(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"--engine=native", "--db=" + filepath.Join(t.TempDir(), "db"), "--seed=1", "--num=10",
		"--value_size_distribution_type=uniform", "--value_size_min=200", "--value_size_max=100"}, &out, &errb)
	if code != 1 || errb.String() != "Invalid value for --value_size_min: 200, must be <= --value_size_max (100)\n" {
		t.Fatalf("exit %d stderr %q", code, errb.String())
	}
}

// TestNoInternalErrorAtEdgeValues sets each numeric flag the driver or the
// engines read to -1 and to 0, one at a time, and runs a short write, read
// and scan workload on the native engine: a run may fail with a message,
// but never through a recovered panic ("internal error") or a crash.
func TestNoInternalErrorAtEdgeValues(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a few hundred short benchmarks")
	}
	fs := gflags.NewFlagSet("db_bench", Version)
	flags.Register(fs)
	var names []string
	fs.VisitAll(func(f *gflags.Flag) {
		switch f.Type {
		case gflags.TypeInt32, gflags.TypeInt64, gflags.TypeDouble:
			if takesEffect(f.Name) {
				names = append(names, f.Name)
			}
		}
	})
	if len(names) < 40 {
		t.Fatalf("only %d numeric flags found", len(names))
	}
	for _, name := range names {
		for _, v := range []string{"-1", "0"} {
			var out, errb bytes.Buffer
			code := Main([]string{"--engine=native", "--db=" + filepath.Join(t.TempDir(), "db"), "--seed=1", "--num=20",
				"--benchmarks=fillseq,readrandom,seekrandom,readseq,fillbatch", "--" + name + "=" + v}, &out, &errb)
			if strings.Contains(errb.String(), "internal error") || (code != 0 && code != 1) {
				t.Errorf("--%s=%s: exit %d, stderr %q", name, v, code, errb.String())
			}
		}
	}
}

// flagsTakingAnyValue are the numeric flags the driver or an engine reads
// that have no range in flagLimits, with the reason; with flagLimits they
// account for every such flag, so a new one needs a decision.
var flagsTakingAnyValue = map[string]string{}

func init() {
	for reason, names := range map[string]string{
		"unsigned: gflags refuses a negative value": "rate_limiter_bytes_per_sec benchmark_read_rate_limit benchmark_write_rate_limit " +
			"bytes_per_sync delayed_write_rate hard_pending_compaction_bytes_limit max_bytes_for_level_base " +
			"max_compaction_bytes max_total_wal_size slow_usecs soft_pending_compaction_bytes_limit wal_bytes_per_sync " +
			"backup_rate_limit restore_rate_limit",
		"db_bench's own validator (flags/validators.go)": "cache_numshardbits prefix_size readwritepercent deletepercent " +
			"table_cache_numshardbits subcompactions",
		"checked with db_bench's words (startupchecks.go)":     "key_size compression_ratio perf_level user_timestamp_size",
		"with a rate limiter, the rocksdb engine refuses <= 0": "rate_limiter_refill_period_us",
		"a negative value has a meaning": "row_cache_size reads writes deletes cache_size bloom_bits compression_level " +
			"min_level_to_compress max_background_compactions max_background_flushes open_files compact_target_level seed",
		"RocksDB sanitizes it; the engines check what they use": "max_write_buffer_number " +
			"min_write_buffer_number_to_merge level0_file_num_compaction_trigger level0_slowdown_writes_trigger " +
			"level0_stop_writes_trigger max_background_jobs block_restart_interval index_block_restart_interval " +
			"target_file_size_multiplier max_bytes_for_level_multiplier memtable_bloom_size_ratio " +
			"compaction_readahead_size compression_max_dict_bytes skip_list_lookahead stats_level sample_for_compression",
		"reporting; zero or a negative value turns it off": "stats_interval stats_interval_seconds stats_per_interval " +
			"report_interval_seconds ops_between_duration_checks read_random_exp_range",
		"profiles benchmark knobs; out-of-range values fall back to defaults":                   "profiles_queries profiles_query_limit profiles_seed",
		"read by randomreplacekeys alone, which refuses --numdistinct < 1 and takes any stddev": "numdistinct stddev",
		"read by the merge benchmarks: a negative merge_keys means --num, 0 is refused there; " +
			"mergereadpercent is compared with rand % 100": "merge_keys mergereadpercent",
		"mixgraph's workload model: any shape db_bench takes; setupMixGraph refuses the values it divides by": "iter_k " +
			"iter_sigma iter_theta key_dist_a key_dist_b keyrange_dist_a keyrange_dist_b keyrange_dist_c keyrange_dist_d " +
			"keyrange_num mix_get_ratio mix_put_ratio mix_seek_ratio mix_max_scan_len mix_max_value_size sine_a sine_b " +
			"sine_c sine_d sine_mix_rate_interval_milliseconds sine_mix_rate_noise value_k value_sigma value_theta",
		"read by timeseries, which refuses --key_id_range <= 0 (time_range is unsigned)": "key_id_range time_range " +
			"num_deletion_threads",
		"YCSB's properties: negative means the workload's; ycsbPlan refuses what cannot run": "recordcount " +
			"operationcount readproportion updateproportion insertproportion scanproportion readmodifywriteproportion " +
			"minscanlength maxscanlength fieldcount fieldlength",
		"read by replay, which refuses a non-positive fast forward in RocksDB's words and, as RocksDB, replays " +
			"in one thread for --trace_replay_threads <= 1": "trace_replay_fast_forward trace_replay_threads",
		"the sine-wave write rate's interval: 0 moves the rate after every batch": "sine_write_rate_interval_milliseconds",
		"read by randomtransaction, which refuses the set counts db_bench refuses (0 or over 9999 as a " +
			"uint16); any lock timeout is one (unsigned)": "transaction_sets transaction_lock_timeout",
		"range deletions: a non-positive period means none, a negative start at once": "writes_per_range_tombstone " +
			"writes_before_delete_range",
		"column families: <= 1 is the default family alone, and a hot count of 0 or not below the " +
			"family count makes every family hot, as in db_bench": "num_column_families num_hot_column_families",
		"databases: <= 1 opens one at --db, as in db_bench": "num_multi_db",
		"a RocksDB feature (options.RocksDBFeatures): RocksDB checks it as in C++ db_bench, other engines " +
			"refuse it": "cache_high_pri_pool_ratio cache_low_pri_pool_ratio compressed_secondary_cache_size " +
			"compressed_secondary_cache_numshardbits compressed_secondary_cache_high_pri_pool_ratio " +
			"compressed_secondary_cache_low_pri_pool_ratio compressed_secondary_cache_compress_format_version " +
			"cuckoo_hash_ratio hash_bucket_count num_high_pri_threads num_low_pri_threads num_bottom_pri_threads " +
			"simcache_size write_batch_protection_bytes_per_key block_cache_trace_max_trace_file_size_in_bytes " +
			"block_cache_trace_sampling_frequency secondary_update_interval",
		"read by the unique-random fills, which refuse in db_bench's words what it refuses": "overwrite_probability " +
			"overwrite_window_size disposable_entries_batch_size disposable_entries_delete_delay " +
			"disposable_entries_value_size persistent_entries_batch_size persistent_entries_value_size",
	} {
		for _, n := range strings.Fields(names) {
			flagsTakingAnyValue[n] = reason
		}
	}
	// Options set by name reach only RocksDB's own option parser and
	// checks (the rocksdb engine); the other engines ignore them.
	for _, n := range options.ByNameKeys() {
		flagsTakingAnyValue[n] = "RocksDB checks it at open; other engines ignore it"
	}
}

// TestEveryNumericFlagDecided: each numeric flag the driver or an engine
// reads has a range in flagLimits or a reason in flagsTakingAnyValue.
func TestEveryNumericFlagDecided(t *testing.T) {
	limited := map[string]bool{}
	for _, l := range flagLimits {
		limited[l.name] = true
	}
	fs := gflags.NewFlagSet("db_bench", Version)
	flags.Register(fs)
	fs.VisitAll(func(f *gflags.Flag) {
		switch f.Type {
		case gflags.TypeInt32, gflags.TypeInt64, gflags.TypeUint32, gflags.TypeUint64, gflags.TypeDouble:
		default:
			return
		}
		if !takesEffect(f.Name) {
			return // no effect here; setting it prints a warning
		}
		if limited[f.Name] == (flagsTakingAnyValue[f.Name] != "") {
			t.Errorf("--%s: needs exactly one of a flagLimits range or a flagsTakingAnyValue reason", f.Name)
		}
	})
}

// takesEffect reports whether the driver reads the flag or it sets an
// engine option.
func takesEffect(name string) bool {
	return driverFlags[name] || options.FlagSpec(name) != nil
}

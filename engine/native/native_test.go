package native

import (
	"io"
	"slices"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/engine/enginetest"
	"github.com/godbbench/godbbench/options"
)

func openFunc(t *testing.T) func(dir string) engine.DB { return openWith(t, func(*options.Options) {}) }

// openWith opens with 256 KiB write buffers and what set changes.
func openWith(t *testing.T, set func(o *options.Options)) func(dir string) engine.DB {
	return func(dir string) engine.DB {
		o := options.Default()
		o.WriteBufferSize = 256 << 10
		set(o)
		db, err := Opener{}.Open(dir, o, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
}

func TestConformance(t *testing.T) { enginetest.RunConformance(t, openFunc(t)) }

func TestConcurrency(t *testing.T) { enginetest.RunConcurrency(t, openFunc(t)) }

// TestMerge runs the merge suite, GetMergeOperands included.
func TestMerge(t *testing.T) {
	o := options.Default()
	o.WriteBufferSize = 256 << 10
	enginetest.RunMerge(t, enginetest.MergeOpenWith(t, Opener{}, o), true)
}

func TestRegistered(t *testing.T) {
	o, err := engine.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Info().VersionLine; got != "godbbench:  version "+Version {
		t.Fatalf("version line %q", got)
	}
}

func TestWarnings(t *testing.T) {
	o := options.Default()
	o.Explicit["advise_random_on_open"] = true
	o.CompressionType = "zlib"
	o.Explicit["compression_type"] = true
	var w stringWriter
	mapOptions(o, &w)
	want := "WARNING: engine native ignores option advise_random_on_open\nWARNING: engine native does not support compression zlib; using zstd\n"
	if string(w) != want {
		t.Fatalf("warnings:\n%s", w)
	}
}

type stringWriter []byte

func (s *stringWriter) Write(p []byte) (int, error) { *s = append(*s, p...); return len(p), nil }

func TestStatistics(t *testing.T) {
	enginetest.RunStatistics(t, openWith(t, func(o *options.Options) { o.Statistics = true }), 0)
}

// TestSharedStatistics: databases of SharingStatistics count in one
// statistics object.
func TestSharedStatistics(t *testing.T) {
	o := options.Small()
	o.Statistics = true
	enginetest.RunSharedStatistics(t, Opener{}, o)
}

// TestConcurrencyWithStatistics: counting adds no race (run with -race).
func TestConcurrencyWithStatistics(t *testing.T) {
	enginetest.RunConcurrency(t, openWith(t, func(o *options.Options) { o.Statistics = true }))
}

// TestHashBucketCount: --hash_bucket_count, when given, sizes the hash
// memtables; unset, they keep their own defaults.
func TestHashBucketCount(t *testing.T) {
	o := options.Default()
	o.Memtablerep = "hash_linkedlist"
	o.HashBucketCount = 1024
	if got := mapOptions(o, io.Discard).Memtablerep; got != "hash_linkedlist" {
		t.Errorf("unset: memtablerep %q", got)
	}
	o.Explicit["hash_bucket_count"] = true
	if got := mapOptions(o, io.Discard).Memtablerep; got != "hash_linkedlist:1024" {
		t.Errorf("--hash_bucket_count=1024: memtablerep %q", got)
	}
}

// TestIONotes: the I/O options the engine applies are not ignored, and
// every key has one note.
func TestIONotes(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range OptionNotes {
		if seen[n.Key] {
			t.Errorf("two notes for %s", n.Key)
		}
		seen[n.Key] = true
	}
	for _, k := range []string{"rate_limiter_bytes_per_sec", "rate_limiter_refill_period_us", "rate_limiter_auto_tuned",
		"rate_limit_bg_reads", "rate_limit_user_ops", "readahead_size", "compaction_readahead_size", "bytes_per_sync", "use_fsync",
		"use_direct_reads", "use_direct_io_for_flush_and_compaction", "wal_bytes_per_sync", "rate_limit_auto_wal_flush"} {
		if slices.Contains(unsupported, k) {
			t.Errorf("%s is still ignored", k)
		}
	}
}

package native

import (
	"io"
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
	o.Explicit["use_direct_reads"] = true
	o.CompressionType = "zlib"
	o.Explicit["compression_type"] = true
	var w stringWriter
	mapOptions(o, &w)
	want := "WARNING: engine native ignores option use_direct_reads\nWARNING: engine native does not support compression zlib; using zstd\n"
	if string(w) != want {
		t.Fatalf("warnings:\n%s", w)
	}
}

type stringWriter []byte

func (s *stringWriter) Write(p []byte) (int, error) { *s = append(*s, p...); return len(p), nil }

func TestStatistics(t *testing.T) {
	enginetest.RunStatistics(t, openWith(t, func(o *options.Options) { o.Statistics = true }), 0)
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

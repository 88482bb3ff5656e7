package dbbench_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyChecksumFindsDamage flips one byte inside the first data block
// of a table and checks that verifychecksum, which passed before, now
// exits 1 with db_bench's "VerifyChecksum() failed: Corruption: ..." line
// naming the damaged file, on the engines whose table reading is this
// project's code or Pebble's.
func TestVerifyChecksumFindsDamage(t *testing.T) {
	for _, eng := range []string{"native", "pebble"} {
		t.Run(eng, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			common := []string{"--engine=" + eng, "--db=" + dir, "--num=2000", "--seed=1", "--compression_type=none", "--progress_reports=false"}
			if code, _, stderr := runMain(t, append(common, "--benchmarks=fillseq,flush,verifychecksum")...); code != 0 {
				t.Fatalf("fill and verify of an intact DB: exit %d\n%s", code, stderr)
			}
			tables, err := filepath.Glob(filepath.Join(dir, "*.sst"))
			if err != nil || len(tables) == 0 {
				t.Fatalf("no table in %s (%v)", dir, err)
			}
			damaged := tables[0]
			b, err := os.ReadFile(damaged)
			if err != nil {
				t.Fatal(err)
			}
			b[100] ^= 0xff // inside the first data block: its checksum no longer matches
			if err := os.WriteFile(damaged, b, 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runMain(t, append(common, "--use_existing_db", "--benchmarks=verifychecksum")...)
			if code != 1 {
				t.Fatalf("verifychecksum of a damaged table: exit %d, want 1\n%s", code, stderr)
			}
			if !strings.Contains(stderr, "VerifyChecksum() failed: Corruption: ") || !strings.Contains(stderr, filepath.Base(damaged)) {
				t.Errorf("stderr does not say which table is damaged, in RocksDB's words:\n%s", stderr)
			}
		})
	}
}

// TestMaintenanceNeedsTheEngineInterface: on an engine without
// engine.Maintainer (the test engine "null") each maintenance benchmark
// exits 1 naming the engine, and block_cache_entry_stats, a property,
// prints "(failed)" as db_bench prints a property the DB lacks.
func TestMaintenanceNeedsTheEngineInterface(t *testing.T) {
	for _, bench := range []string{"approximatesizerandom", "verifychecksum", "verifyfilechecksums", "compact0", "compact1", "stats_history"} {
		code, _, stderr := runMain(t, "--engine=null", "--db="+filepath.Join(t.TempDir(), "db"), "--num=10", "--benchmarks="+bench)
		if code != 1 || !strings.Contains(stderr, "the null engine lacks RocksDB's maintenance calls") {
			t.Errorf("%s on the null engine: exit %d, want 1 naming the engine\n%s", bench, code, stderr)
		}
	}
	code, stdout, _ := runMain(t, "--engine=null", "--db="+filepath.Join(t.TempDir(), "db"), "--num=10", "--benchmarks=block_cache_entry_stats")
	if code != 0 || !strings.Contains(stdout, "\n(failed)\n") {
		t.Errorf("block_cache_entry_stats on the null engine: exit %d\n%s", code, stdout)
	}
}

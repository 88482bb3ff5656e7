package dbbench_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/dbbench/jsonrecord"
)

// TestSeekRandomAutoPrefixBound: with --auto_prefix_mode and a
// --prefix_size, seekrandom bounds each seek at the next prefix, so its
// --seek_nexts steps stay among the 10 keys of the seek's prefix (at most
// 10 entries of 16+100 bytes a seek); without it they run on.
func TestSeekRandomAutoPrefixBound(t *testing.T) {
	bytesOf := func(extra ...string) (int64, int64) {
		dir := t.TempDir()
		js := filepath.Join(dir, "r.jsonl")
		args := append([]string{"--engine=native", "--db=" + filepath.Join(dir, "db"), "--seed=1", "--num=1000",
			"--prefix_size=8", "--keys_per_prefix=10", "--benchmarks=fillseq,seekrandom", "--seek_nexts=50",
			"--report_json=" + js}, extra...)
		if code, _, stderr := runMain(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		f, err := os.Open(js)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		var rec jsonrecord.Record
		for sc.Scan() {
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatal(err)
			}
		}
		return rec.Bytes, rec.Reads
	}
	bounded, reads := bytesOf("--auto_prefix_mode=true")
	if reads != 1000 || bounded == 0 || bounded > reads*10*116 {
		t.Fatalf("bounded seeks read %d bytes in %d seeks; want at most 10 entries of 116 bytes a seek", bounded, reads)
	}
	if free, _ := bytesOf(); free <= reads*10*116 {
		t.Fatalf("unbounded seeks read only %d bytes in %d seeks", free, reads)
	}
}

// readOptionLists: seekrandom with one tailing iterator, with the
// next-prefix bound, and with read options only the rocksdb engine
// applies (the others warn); found counts and contents must be C++
// db_bench's.
var readOptionLists = [][]string{
	{"--benchmarks=fillrandom,seekrandom", "--num=3000", "--seed=6", "--use_tailing_iterator=true", "--seek_nexts=3"},
	{"--benchmarks=fillrandom,seekrandom", "--num=3000", "--seed=7", "--prefix_size=8", "--keys_per_prefix=10",
		"--auto_prefix_mode=true", "--seek_nexts=4"},
	{"--benchmarks=fillrandom,seekrandom,readseq", "--num=3000", "--seed=8", "--total_order_seek=true",
		"--readahead_size=65536", "--async_io=true", "--adaptive_readahead=true", "--rate_limit_user_ops=true"},
}

func TestOracleReadOptions(t *testing.T) { compareListsWithOracle(t, readOptionLists) }

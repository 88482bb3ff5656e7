package pebble

import (
	"encoding/binary"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

func fillAndCompact(t *testing.T) engine.DB {
	t.Helper()
	db := openTest(t, testOptions())(t.TempDir())
	key, val := make([]byte, 16), make([]byte, 100)
	for i := 0; i < 5000; i++ {
		binary.BigEndian.PutUint64(key, uint64(i))
		if err := db.Put(key, val, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestStatsLayout checks rocksdb.stats the way tools/benchmark.sh reads it.
func TestStatsLayout(t *testing.T) {
	db := fillAndCompact(t)
	defer db.Close()
	s, ok := db.Property("rocksdb.stats")
	if !ok {
		t.Fatal("rocksdb.stats not supported")
	}
	lines := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		for _, p := range []string{"Uptime(secs)", "Cumulative writes", "Cumulative compaction",
			"Flush(GB)", "Stalls(count):", "Cumulative stall", " Sum", "Blob file count:"} {
			if strings.HasPrefix(l, p) {
				lines[p] = l
			}
		}
	}
	patterns := map[string]string{
		"Uptime(secs)":          `^Uptime\(secs\): \d+\.\d total, \d+\.\d interval$`,
		"Cumulative writes":     `^Cumulative writes: 5000 writes, 5000 keys, 5000 commit groups, 1\.0 writes per commit group, ingest: \d+\.\d\d GB, \d+\.\d\d MB/s$`,
		"Cumulative compaction": `^Cumulative compaction: \d+\.\d\d GB write, \d+\.\d\d MB/s write, \d+\.\d\d GB read, \d+\.\d\d MB/s read, \d+\.\d seconds$`,
		"Flush(GB)":             `^Flush\(GB\): cumulative \d+\.\d{3}, interval \d+\.\d{3}$`,
		"Stalls(count):":        `^Stalls\(count\): \d+ level0_slowdown, \d+ level0_slowdown_with_compaction, \d+ level0_numfiles, \d+ level0_numfiles_with_compaction, \d+ stop for pending_compaction_bytes, \d+ slowdown for pending_compaction_bytes, \d+ memtable_compaction, \d+ memtable_slowdown, interval \d+ total count$`,
		"Cumulative stall":      `^Cumulative stall: \d\d:\d\d:\d+\.\d{3} H:M:S, \d+\.\d percent$`,
		"Blob file count:":      `^Blob file count: \d+, total size: \d+\.\d GB, garbage size: \d+\.\d GB, space amp: \d+\.\d$`,
	}
	for p, re := range patterns {
		if !regexp.MustCompile(re).MatchString(lines[p]) {
			t.Errorf("%s line %q does not match %s", p, lines[p], re)
		}
	}
	// benchmark.sh: the Sum row has 22 fields, size in $3 $4, Comp(sec) in $15.
	f := strings.Fields(lines[" Sum"])
	if len(f) != 22 || f[0] != "Sum" || f[3] != "KB" && f[3] != "MB" {
		t.Fatalf("Sum row %q: %d fields", lines[" Sum"], len(f))
	}
	if _, err := strconv.ParseFloat(f[14], 64); err != nil {
		t.Errorf("Sum row Comp(sec) %q: %v", f[14], err)
	}
	// Stalls: benchmark.sh sums $2+$6+$10+$14+$18+$20.
	sf := strings.Fields(lines["Stalls(count):"])
	for _, i := range []int{1, 5, 9, 13, 17, 19} {
		if _, err := strconv.Atoi(sf[i]); err != nil {
			t.Errorf("Stalls field $%d = %q is not a count", i+1, sf[i])
		}
	}
	// Pebble's own table comes first.
	if !strings.Contains(s, "LSM") && !strings.Contains(s, "level") {
		t.Errorf("Pebble's metrics table missing:\n%s", s)
	}
}

func TestLevelStatsAndSSTables(t *testing.T) {
	db := fillAndCompact(t)
	defer db.Close()
	ls, ok := db.Property("rocksdb.levelstats")
	if !ok {
		t.Fatal("levelstats not supported")
	}
	rows := strings.Split(strings.TrimSuffix(ls, "\n"), "\n")
	if rows[0] != "Level Files Size(MB)" || rows[1] != strings.Repeat("-", 20) || len(rows) != 2+7 {
		t.Fatalf("levelstats layout:\n%s", ls)
	}
	row := regexp.MustCompile(`^[ \d]{3} [ \d]{8} [ \d]{8}$`)
	files := 0
	for _, r := range rows[2:] {
		if !row.MatchString(r) {
			t.Errorf("levelstats row %q", r)
		}
		n, _ := strconv.Atoi(strings.Fields(r)[1])
		files += n
	}
	if files == 0 {
		t.Errorf("no files after fill and compact:\n%s", ls)
	}
	ss, _ := db.Property("rocksdb.sstables")
	if !strings.HasPrefix(ss, "--- level 0 --- version# 0 ---\n") ||
		!regexp.MustCompile(`(?m)^ \d+:\d+\['[0-9A-F]*' seq:\d+, type:\d+ \.\. '[0-9A-F]*' seq:\d+, type:\d+\]$`).MatchString(ss) {
		t.Errorf("sstables layout:\n%s", ss)
	}
}

func TestMemAndBackgroundProperties(t *testing.T) {
	db := openTest(t, testOptions())(t.TempDir())
	defer db.Close()
	if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		"rocksdb.num-immutable-mem-table", "rocksdb.cur-size-active-mem-table",
		"rocksdb.cur-size-all-mem-tables", "rocksdb.size-all-mem-tables",
		"rocksdb.mem-table-flush-pending", "rocksdb.num-running-flushes",
		"rocksdb.compaction-pending", "rocksdb.num-running-compactions",
		"rocksdb.num-files-at-level0", "rocksdb.estimate-pending-compaction-bytes",
	} {
		v, ok := db.Property(name)
		if !ok {
			t.Errorf("%s not supported", name)
			continue
		}
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			t.Errorf("%s = %q, not a number", name, v)
		}
	}
	if v, _ := db.Property("rocksdb.cur-size-active-mem-table"); v == "0" {
		t.Errorf("active memtable size is 0 after a write")
	}
	for _, name := range []string{"rocksdb.num-entries-active-mem-table", "rocksdb.no-such-property", "rocksdb.num-files-at-level9"} {
		if _, ok := db.Property(name); ok {
			t.Errorf("%s reported as supported", name)
		}
	}
}

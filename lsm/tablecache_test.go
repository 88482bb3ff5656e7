package lsm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/statistics"
	"github.com/godbbench/godbbench/options"
)

func TestTableCacheCapacity(t *testing.T) {
	for _, c := range []struct{ maxOpenFiles, fileLimit, want int }{
		{-1, 1024, 0}, {0, 1024, 10}, {-2, 1024, 10}, {5, 1024, 10}, {20, 1024, 10}, {21, 1024, 11},
		{50, 1024, 40}, {5000, 1 << 20, 4990},
		// Clipped to the process's file limit first, then raised to 20.
		{5000, 1024, 1014}, {5000, 16, 10}, {-1, 16, 0},
	} {
		if got := tableCacheCapacity(c.maxOpenFiles, c.fileLimit); got != c.want {
			t.Errorf("max_open_files %d, file limit %d: capacity %d, want %d", c.maxOpenFiles, c.fileLimit, got, c.want)
		}
	}
	if l := processFileLimit(); l < 1 {
		t.Errorf("processFileLimit() = %d", l)
	}
	if newTableCache(-1) != nil {
		t.Error("max_open_files -1 made a table cache")
	}
}

// manyTablesOptions are options whose fills leave hundreds of small
// tables, with max_open_files = openFiles.
func manyTablesOptions(openFiles int) *options.Options {
	o := options.Small()
	o.WriteBufferSize = 32 << 10
	o.TargetFileSizeBase = 4 << 10
	o.MaxBytesForLevelBase = 64 << 10
	o.OpenFiles = openFiles
	return o
}

// tableCacheValue is the value of key i written in round r: a reader
// recognises any round's value of its key.
func tableCacheValue(i, r int) string {
	return fmt.Sprintf("value-%06d-%04d-%s", i, r, strings.Repeat("v", 60))
}

func tableCacheKey(i int) string { return fmt.Sprintf("key-%06d", i) }

// fillRound writes keys [0, n) with round r's values, 100 to a batch.
func fillRound(t testing.TB, db *DB, n, r int) {
	t.Helper()
	b := NewBatch()
	for i := range n {
		b.Put([]byte(tableCacheKey(i)), []byte(tableCacheValue(i, r)))
		if i%100 == 99 || i == n-1 {
			if err := db.Write(b, WriteOptions{}); err != nil {
				t.Error(err)
				return
			}
			b.Reset()
		}
	}
}

func tableCount(db *DB) int {
	n := 0
	for _, files := range db.currentVersionForTest().levels {
		n += len(files)
	}
	return n
}

// openTableFDs counts the descriptors of this process open on table
// files of dir.
func openTableFDs(t *testing.T, dir string) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	n := 0
	for _, e := range ents {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if err == nil && filepath.Dir(target) == dir && strings.HasSuffix(target, ".sst") {
			n++
		}
	}
	return n
}

// TestTableCacheModel reads and rewrites a DB of hundreds of tables
// through a table cache of 10 readers from several goroutines at once:
// Gets, forward and backward scans, writes whose flushes and compactions
// delete tables under the readers, and a manual compaction. Every read
// must see one of its key's values, every scan every key in order, and
// the DB must end holding the last round.
func TestTableCacheModel(t *testing.T) {
	for _, format := range []string{"pread", "mmap", options.TableFormatRTable} {
		t.Run(format, func(t *testing.T) {
			o := manyTablesOptions(20)
			o.MmapRead = format == "mmap"
			if format == options.TableFormatRTable {
				o.TableFormat = format // mapped tables below L0
			}
			testTableCacheModel(t, o)
		})
	}
}

func testTableCacheModel(t *testing.T, o *options.Options) {
	const n, rounds, gets, scans = 16000, 1, 3000, 2
	dir := t.TempDir()
	stats := statistics.New(statistics.ExceptDetailedTimers)
	db, err := Open(dir, o, Config{Statistics: stats})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fillRound(t, db, n, 0)
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if got := tableCount(db); got < 150 {
		t.Fatalf("%d tables, want hundreds", got)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	wg.Add(1)
	go func() { // writer: rounds of overwrites, then a full compaction
		defer wg.Done()
		for r := 1; r <= rounds; r++ {
			fillRound(t, db, n, r)
			if err := db.Compact(nil, nil, -1); err != nil {
				errs <- err
				return
			}
		}
	}()
	for g := range 3 {
		wg.Add(1)
		go func() { // point reads
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range gets {
				i := rng.IntN(n)
				var v string
				found, err := db.Get([]byte(tableCacheKey(i)), func(b []byte) { v = string(b) })
				if err != nil || !found || !strings.HasPrefix(v, fmt.Sprintf("value-%06d-", i)) {
					errs <- fmt.Errorf("Get %d: found %v, value %q, err %v", i, found, v, err)
					return
				}
			}
		}()
	}
	for g := range 2 {
		wg.Add(1)
		go func() { // whole scans, forward then backward
			defer wg.Done()
			for range scans {
				if err := checkScan(db, n, g == 1); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i := 0; i < n; i += 7 {
		if v, ok := getString(t, db, tableCacheKey(i)); !ok || v != tableCacheValue(i, rounds) {
			t.Fatalf("key %d after the rounds: %q, %v", i, v, ok)
		}
	}
	if got, limit := db.tables.openReaders(), db.tables.capacity; got > limit {
		t.Errorf("%d readers open with nothing pinned, capacity %d", got, limit)
	}
	if opens := stats.Ticker(statistics.NoFileOpens); opens <= uint64(db.tables.capacity) {
		t.Errorf("rocksdb.no.file.opens %d: readers were not reopened after eviction", opens)
	}
}

// checkScan walks the DB and checks that it holds keys [0, n) in order,
// each with one of its values.
func checkScan(db *DB, n int, backward bool) error {
	it, err := db.NewIter(nil)
	if err != nil {
		return err
	}
	defer it.Close()
	i, step, ok := 0, 1, it.First()
	next := it.Next
	if backward {
		i, step, ok, next = n-1, -1, it.Last(), it.Prev
	}
	count := 0
	for ; ok; ok = next() {
		v, err := it.Value()
		if err != nil {
			return err
		}
		if string(it.Key()) != tableCacheKey(i) || !bytes.HasPrefix(v, []byte(fmt.Sprintf("value-%06d-", i))) {
			return fmt.Errorf("scan (backward %v) at %d: key %q value %q", backward, i, it.Key(), v)
		}
		i += step
		count++
	}
	if err := it.Error(); err != nil {
		return err
	}
	if count != n {
		return fmt.Errorf("scan (backward %v) saw %d keys, want %d", backward, count, n)
	}
	return nil
}

// TestTableCacheOpenFDs checks with /proc/self/fd that random reads over
// hundreds of tables never hold more table files open than the cache's
// capacity, and that every table stays open without a limit.
func TestTableCacheOpenFDs(t *testing.T) {
	const n = 16000
	for _, openFiles := range []int{30, -1} {
		t.Run(fmt.Sprint(openFiles), func(t *testing.T) {
			dir := t.TempDir()
			db := mustOpen(t, dir, manyTablesOptions(openFiles))
			defer db.Close()
			fillRound(t, db, n, 0)
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
			tables := tableCount(db)
			if tables < 150 {
				t.Fatalf("%d tables, want hundreds", tables)
			}
			// Every table once, then random reads.
			for _, level := range db.currentVersionForTest().levels {
				for _, f := range level {
					if _, ok := getString(t, db, string(f.smallest)); !ok {
						t.Fatalf("smallest key of table %d not found", f.num)
					}
				}
			}
			rng := rand.New(rand.NewPCG(1, 2))
			most := openTableFDs(t, dir)
			for i := range 2000 {
				if _, ok := getString(t, db, tableCacheKey(rng.IntN(n))); !ok {
					t.Fatal("key not found")
				}
				if i%8 == 0 {
					most = max(most, openTableFDs(t, dir))
				}
			}
			limit := tableCacheCapacity(openFiles, processFileLimit())
			if openFiles == -1 {
				if got := openTableFDs(t, dir); got != tables {
					t.Errorf("unlimited: %d table files open, want all %d", got, tables)
				}
				return
			}
			if most > limit {
				t.Errorf("%d table files open at once, limit %d", most, limit)
			}
			if most < limit {
				t.Errorf("at most %d table files open, the cache of %d never filled", most, limit)
			}
		})
	}
}

// TestTableCacheEvictionSparesPinned pins readers (an iterator's and one
// taken directly), reads every other table so that the cache evicts over
// and over, and checks that the pinned readers stayed open and readable;
// then a compaction deletes the pinned table's file, which its reader
// still reads until its last pin drops and closes it.
func TestTableCacheEvictionSparesPinned(t *testing.T) {
	const n = 16000
	dir := t.TempDir()
	db := mustOpen(t, dir, manyTablesOptions(20))
	defer db.Close()
	fillRound(t, db, n, 0)
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	v := db.currentVersionForTest()
	var files []*fileMeta
	for _, level := range v.levels {
		files = append(files, level...)
	}
	pinnedFile := files[len(files)/2]
	pinned, err := db.tableReader(pinnedFile)
	if err != nil {
		t.Fatal(err)
	}
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !it.First() {
		t.Fatal("empty DB")
	}
	// Every table once, twice over: far more than the capacity.
	for range 2 {
		for _, f := range files {
			if _, ok := getString(t, db, string(f.smallest)); !ok {
				t.Fatalf("smallest key %q of table %d not found", f.smallest, f.num)
			}
		}
	}
	if pinnedFile.reader.Load() != pinned || pinned.cached.detached {
		t.Fatal("a pinned reader was evicted")
	}
	if err := checkTableReads(pinned, pinnedFile); err != nil {
		t.Fatal(err)
	}
	if string(it.Key()) != tableCacheKey(0) {
		t.Fatalf("iterator at %q", it.Key())
	}
	for i := 1; i < n; i++ {
		if !it.Next() || string(it.Key()) != tableCacheKey(i) {
			t.Fatalf("iterator step %d: valid %v, key %q, err %v", i, it.Valid(), it.Key(), it.Error())
		}
	}
	it.Close()
	// A rewrite and a compaction replace every table: the pinned file is
	// deleted, its reader detached and still open.
	fillRound(t, db, n, 1)
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tableName(dir, pinnedFile.num)); !os.IsNotExist(err) {
		t.Fatalf("table %d of the old version still there: %v", pinnedFile.num, err)
	}
	if !pinned.cached.detached {
		t.Fatal("the deleted table's reader is still attached")
	}
	if err := checkTableReads(pinned, pinnedFile); err != nil {
		t.Fatalf("reading the deleted table: %v", err)
	}
	before := db.tables.openReaders()
	db.releaseTable(pinned)
	if after := db.tables.openReaders(); after != before-1 {
		t.Fatalf("releasing the deleted table's last pin: %d readers open, was %d", after, before)
	}
}

// checkTableReads looks up the smallest and largest keys of f in its
// reader t.
func checkTableReads(t *openTable, f *fileMeta) error {
	for _, k := range [][]byte{f.smallest, f.largest} {
		found, err := t.Get(k, latestSeq, func([]byte, base.Kind, uint64) {})
		if err != nil || !found {
			return fmt.Errorf("table %d key %q: found %v, err %v", f.num, k, found, err)
		}
	}
	return nil
}

// TestTableCacheHotPathAllocations: with a bounded table cache too, Get
// and iterator steps allocate nothing.
func TestTableCacheHotPathAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	o := benchOptions()
	o.OpenFiles = 50
	hotPathAllocations(t, o)
}

// BenchmarkReadRandomManyTables: random Gets over about 200 tables, all
// of them open (max_open_files -1) or at most 40 (50).
func BenchmarkReadRandomManyTables(b *testing.B) {
	for _, openFiles := range []int{-1, 50} {
		b.Run(fmt.Sprintf("open_files=%d", openFiles), func(b *testing.B) {
			o := benchOptions()
			o.TargetFileSizeBase = benchKeys * 120 / 200
			o.CompressionType = "none" // the zero values would compress to nothing
			o.OpenFiles = openFiles
			benchmarkReadRandomWith(b, o, true)
		})
	}
}

// TestTableOpenTickers: every table reader opened counts as
// rocksdb.no.file.opens, a table file that cannot be opened as
// rocksdb.no.file.errors, with and without a table cache.
func TestTableOpenTickers(t *testing.T) {
	for _, openFiles := range []int{-1, 20} {
		t.Run(fmt.Sprint(openFiles), func(t *testing.T) {
			dir := t.TempDir()
			stats := statistics.New(statistics.ExceptDetailedTimers)
			o := options.Small()
			o.OpenFiles = openFiles
			o.Level0FileNumCompactionTrigger = 10 // no compaction opens tables
			db, err := Open(dir, o, Config{Statistics: stats})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			put(t, db, "a", "1")
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
			put(t, db, "b", "2")
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
			opens := stats.Ticker(statistics.NoFileOpens)
			getString(t, db, "a")
			getString(t, db, "b")
			getString(t, db, "a")
			if got := stats.Ticker(statistics.NoFileOpens) - opens; got != 2 {
				t.Errorf("reading two tables opened %d readers, want 2", got)
			}
			put(t, db, "c", "3")
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
			l0 := db.currentVersionForTest().levels[0]
			if err := os.Remove(tableName(dir, l0[0].num)); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Get([]byte("c"), func([]byte) {}); err == nil {
				t.Fatal("Get from a removed table: no error")
			}
			if got := stats.Ticker(statistics.NoFileErrors); got != 1 {
				t.Errorf("rocksdb.no.file.errors %d, want 1", got)
			}
		})
	}
}

package lsm

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/statistics"
	"github.com/godbbench/godbbench/options"
)

// prefixTestKey is a key under prefix "p%02d:" (4 bytes) or, for one in
// eight, a short key outside a 4-byte prefix's domain.
func prefixTestKey(rng *rand.Rand) string {
	if rng.Intn(8) == 0 {
		return fmt.Sprintf("s%d", rng.Intn(10))
	}
	return fmt.Sprintf("p%02d:%d", 2*rng.Intn(30), rng.Intn(40))
}

// prefixProbeKey is a key to read or seek: mostly under the written
// prefixes, often under absent ones (odd numbers), sometimes short.
func prefixProbeKey(rng *rand.Rand) string {
	switch rng.Intn(6) {
	case 0:
		return fmt.Sprintf("p%02d:%d", 2*rng.Intn(30)+1, rng.Intn(40))
	case 1:
		return fmt.Sprintf("p%02d:", 2*rng.Intn(30))
	case 2:
		return fmt.Sprintf("s%d", rng.Intn(12))
	}
	return prefixTestKey(rng)
}

type prefixConfig struct {
	label              string
	bloomBits, prefix  int
	wholeKey, memWhole bool
	memRatio           float64
	sameAsStart, total bool
	auto, rtable       bool
}

// TestPrefixModel runs random writes, flushes and compactions under a
// fixed prefix extractor with table filters on and off, whole keys in
// them or not, and a memtable bloom, and checks Gets and prefix seeks
// against a model: a prefix seek returns exactly the model's keys with
// the seek key's prefix, a total-order seek all keys from it on. The DB
// is then reopened under another prefix length, whose seeks must stay
// right over tables filtered by the old one.
func TestPrefixModel(t *testing.T) {
	for i, c := range []prefixConfig{
		{label: "filters+whole", bloomBits: 10, prefix: 4, wholeKey: true, sameAsStart: true},
		{label: "filters prefix-only", bloomBits: 10, prefix: 4, sameAsStart: true},
		{label: "no filters", prefix: 4, wholeKey: true, sameAsStart: true},
		{label: "memtable bloom", bloomBits: 10, prefix: 4, memRatio: 0.1, sameAsStart: true},
		{label: "memtable bloom whole", bloomBits: 10, prefix: 4, wholeKey: true, memRatio: 0.1, memWhole: true, sameAsStart: true},
		{label: "total order seek", bloomBits: 10, prefix: 4, memRatio: 0.1, sameAsStart: true, total: true},
		{label: "auto prefix", bloomBits: 10, prefix: 4, memRatio: 0.1, auto: true},
		{label: "rtable", bloomBits: 10, prefix: 4, memRatio: 0.1, sameAsStart: true, rtable: true},
		{label: "rtable whole", bloomBits: 10, prefix: 4, wholeKey: true, sameAsStart: true, rtable: true},
		{label: "rtable auto prefix", bloomBits: 10, prefix: 4, wholeKey: true, auto: true, rtable: true},
	} {
		t.Run(c.label, func(t *testing.T) { runPrefixModel(t, c, int64(i)) })
	}
}

func runPrefixModel(t *testing.T, c prefixConfig, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	dir := t.TempDir()
	o := testOptions()
	o.BloomBits, o.WholeKeyFiltering, o.PrefixSize = c.bloomBits, c.wholeKey, c.prefix
	o.MemtableBloomSizeRatio = c.memRatio
	o.WriteBufferSize = 16 << 10
	if c.memWhole {
		o.Extra = map[string]string{"memtable_whole_key_filtering": "true"}
	}
	if c.rtable {
		o.TableFormat = options.TableFormatRTable
	}
	db := mustOpen(t, dir, o)
	defer func() { db.Close() }()
	m := model{}
	for round := range 40 {
		for range 60 {
			k := prefixTestKey(rng)
			if rng.Intn(5) == 0 {
				del(t, db, k)
				delete(m, k)
			} else {
				v := fmt.Sprintf("v%d-%s", round, k)
				put(t, db, k, v)
				m[k] = v
			}
		}
		switch rng.Intn(6) {
		case 0:
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		case 1:
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
		}
		if round == 25 {
			// Another prefix length over tables filtered by the old one.
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			o.PrefixSize = 3
			db = mustOpen(t, dir, o)
		}
		checkPrefixReads(t, db, m, c, rng, fmt.Sprintf("round %d", round))
	}
	if c.rtable {
		formatCase{"rtable", options.TableFormatRTable}.requireFormat(t, db)
	}
}

// checkPrefixReads checks Gets and seeks of db against m.
func checkPrefixReads(t *testing.T, db *DB, m model, c prefixConfig, rng *rand.Rand, label string) {
	t.Helper()
	for range 40 {
		k := prefixProbeKey(rng)
		got, found := getString(t, db, k)
		if want, ok := m[k]; found != ok || got != want {
			t.Fatalf("%s: Get(%q) = %q, %v; want %q, %v", label, k, got, found, want, ok)
		}
	}
	n := int(db.prefix)
	keys := m.sortedKeys()
	for range 20 {
		seek := prefixProbeKey(rng)
		io := IterOptions{PrefixSameAsStart: c.sameAsStart, TotalOrderSeek: c.total, AutoPrefix: c.auto}
		bounded := len(seek) >= n && c.sameAsStart
		if c.auto && len(seek) >= n {
			succ, _ := appendSuccessor(nil, []byte(seek[:n]))
			io.UpperBound = succ
			bounded = true
		}
		inRange := func(k string) bool { return !bounded || strings.HasPrefix(k, seek[:n]) }
		var want []string
		for _, k := range keys {
			if k >= seek && inRange(k) {
				want = append(want, k)
			}
		}
		it, err := db.NewIter(&io)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for ok := it.SeekGE([]byte(seek)); ok; ok = it.Next() {
			got = append(got, string(it.Key()))
		}
		if err := it.Error(); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: SeekGE(%q) %+v walked %q, want %q", label, seek, io, got, want)
		}
		if c.sameAsStart {
			// Backward from the seek key, within its prefix.
			want = want[:0]
			for i := len(keys) - 1; i >= 0; i-- {
				if keys[i] <= seek && inRange(keys[i]) {
					want = append(want, keys[i])
				}
			}
			got = got[:0]
			for ok := it.SeekLE([]byte(seek)); ok; ok = it.Prev() {
				got = append(got, string(it.Key()))
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: SeekLE(%q) walked %q, want %q", label, seek, got, want)
			}
		}
		if c.auto {
			walkBothWays(t, it, keys, seek, io.UpperBound, rng, label)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// walkBothWays checks an auto-prefix iterator against the model's sorted
// keys under upper (nil: none) through SeekGE(seek) and then random Next
// and Prev steps: auto_prefix_mode promises a total-order seek's results,
// also after the direction changes, whose re-seeks land on keys of other
// prefixes than the seek's.
func walkBothWays(t *testing.T, it *Iterator, keys []string, seek string, upper []byte, rng *rand.Rand, label string) {
	t.Helper()
	var in []string
	for _, k := range keys {
		if upper == nil || k < string(upper) {
			in = append(in, k)
		}
	}
	pos := sort.SearchStrings(in, seek)
	ok := it.SeekGE([]byte(seek))
	steps := fmt.Sprintf("SeekGE(%q)", seek)
	for step := 0; ; step++ {
		valid := pos >= 0 && pos < len(in)
		if ok != valid || (ok && string(it.Key()) != in[pos]) {
			var at string
			if ok {
				at = string(it.Key())
			}
			want := "invalid"
			if valid {
				want = in[pos]
			}
			t.Fatalf("%s: %s: at %q (valid %v), want %s", label, steps, at, ok, want)
		}
		if !ok || step == 8 {
			break
		}
		if rng.Intn(2) == 0 {
			ok, pos, steps = it.Next(), pos+1, steps+" Next"
		} else {
			ok, pos, steps = it.Prev(), pos-1, steps+" Prev"
		}
	}
	if err := it.Error(); err != nil {
		t.Fatal(err)
	}
}

// TestAutoPrefixNextAfterPrev: an auto-prefix SeekGE, Prev below the
// seek's prefix, then Next: the re-seek of Next is at a key of another
// prefix, so the seek's prefix filter must not leave out the memtable
// holding that key's tombstone (a deleted value came back).
func TestAutoPrefixNextAfterPrev(t *testing.T) {
	o := testOptions()
	o.BloomBits, o.PrefixSize, o.MemtableBloomSizeRatio = 10, 2, 0.1
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	put(t, db, "aa1", "x")
	put(t, db, "aa2", "old")
	put(t, db, "ab1", "y")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	del(t, db, "aa2")
	it, err := db.NewIter(&IterOptions{AutoPrefix: true, UpperBound: []byte("ac")})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var got []string
	for _, move := range []func() bool{func() bool { return it.SeekGE([]byte("ab1")) }, it.Prev, it.Next} {
		if !move() {
			t.Fatalf("iterator ended after %q: %v", got, it.Error())
		}
		got = append(got, string(it.Key()))
	}
	if want := []string{"ab1", "aa1", "ab1"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("SeekGE(ab1) Prev Next: %q, want %q", got, want)
	}
}

// TestPrefixSeekLeavesNoEarlierError: a prefix seek that an L0 table's
// filter rules out does not report that table's error from an earlier
// seek (its damaged block): the table is not read, so it has nothing to
// report.
func TestPrefixSeekLeavesNoEarlierError(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.BloomBits, o.PrefixSize = 10, 2
	o.DisableAutoCompactions = true
	db := mustOpen(t, dir, o)
	for _, k := range []string{"aa1", "bb1"} {
		put(t, db, k, "v")
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	tables := filesOf(t, dir, fileTable)
	if len(tables) != 2 {
		t.Fatalf("tables %q, want 2", tables)
	}
	sort.Strings(tables)
	flipByte(t, tables[0], 4) // aa1's data block
	db = mustOpen(t, dir, o)
	defer db.Close()
	it, err := db.NewIter(&IterOptions{PrefixSameAsStart: true})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if it.SeekGE([]byte("aa1")) || it.Error() == nil {
		t.Fatalf("SeekGE(aa1) over a damaged block: valid %v, error %v", it.Valid(), it.Error())
	}
	if !it.SeekGE([]byte("bb1")) || string(it.Key()) != "bb1" {
		t.Fatalf("SeekGE(bb1), which the damaged table's filter rules out: valid %v, error %v", it.Valid(), it.Error())
	}
}

// TestPrefixSeekSkipsTables checks that a prefix seek leaves out the
// tables (L0 and sorted levels, in either table format) whose filters
// rule the prefix out, as the prefix tickers count, and the memtable its
// bloom filter rules out.
func TestPrefixSeekSkipsTables(t *testing.T) {
	for _, fc := range formatCases {
		t.Run(fc.name, func(t *testing.T) { testPrefixSeekSkipsTables(t, fc) })
	}
}

func testPrefixSeekSkipsTables(t *testing.T, fc formatCase) {
	o := fc.with(testOptions())
	o.BloomBits, o.PrefixSize, o.MemtableBloomSizeRatio = 10, 4, 0.1
	stats := statistics.New(statistics.ExceptHistogramOrTimers)
	db, err := Open(t.TempDir(), o, Config{Version: "test", Statistics: stats})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for p := 0; p < 100; p += 2 {
		put(t, db, fmt.Sprintf("p%02d:x", p), "v")
	}
	seekAbsent := func() {
		t.Helper()
		it, err := db.NewIter(&IterOptions{PrefixSameAsStart: true})
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		for p := 1; p < 100; p += 2 {
			if it.SeekGE(fmt.Appendf(nil, "p%02d:", p)) {
				t.Fatalf("seek to absent prefix p%02d landed on %q", p, it.Key())
			}
		}
		if !it.SeekGE([]byte("p42:")) || string(it.Key()) != "p42:x" {
			t.Fatal("seek to a present prefix missed")
		}
	}
	// The memtable: its bloom rules most absent prefixes out. A
	// memtable iterator's Seek is not counted; what is checked is that
	// the answers stay right.
	seekAbsent()
	for _, step := range []string{"L0", "L6"} {
		if step == "L0" {
			err = db.Flush()
		} else {
			err = db.Compact(nil, nil, -1)
		}
		if err != nil {
			t.Fatal(err)
		}
		if step == "L6" {
			fc.requireFormat(t, db)
		}
		checked, useful := stats.Ticker(statistics.BloomFilterPrefixChecked), stats.Ticker(statistics.BloomFilterPrefixUseful)
		seekAbsent()
		checked = stats.Ticker(statistics.BloomFilterPrefixChecked) - checked
		useful = stats.Ticker(statistics.BloomFilterPrefixUseful) - useful
		// 51 seeks; in L6, p99 lies past the last table and probes none.
		if checked < 50 || checked > 51 || useful < 45 {
			t.Errorf("%s: %d prefix probes, %d of them ruling a table out; want 50-51 and most of the 50 absent prefixes", step, checked, useful)
		}
	}
}

// TestMemBloomRulesOut checks the memtable bloom on its own: no false
// negatives, and few false positives at RocksDB's sizes.
func TestMemBloomRulesOut(t *testing.T) {
	b := newMemBloom(8*10*1000, true)
	for i := range 1000 {
		a := b.startAdd(prefixExtractor(4), fmt.Appendf(nil, "k%06d", i))
		a.finish()
	}
	for i := range 1000 {
		k := fmt.Appendf(nil, "k%06d", i)
		if !b.mayContainKey(prefixExtractor(4), k) || !b.mayContain(k[:4]) {
			t.Fatalf("false negative for %q", k)
		}
	}
	fp := 0
	for i := range 10000 {
		if b.mayContain(fmt.Appendf(nil, "absent%d", i)) {
			fp++
		}
	}
	if fp > 300 {
		t.Errorf("%d of 10000 absent keys admitted", fp)
	}
	if newMemBloom(0, true) != nil {
		t.Error("a bloom of 0 bits was made")
	}
}

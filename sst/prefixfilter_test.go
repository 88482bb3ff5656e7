package sst

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/statistics"
)

// prefixEntries are entries under 200 prefixes "p%03d/" (5 bytes) of
// present prefixes 0, 2, 4, ..., plus keys shorter than the prefix.
func prefixEntries() []entry {
	var es []entry
	for p := 0; p < 400; p += 2 {
		for k := range 5 {
			es = append(es, entry{key: fmt.Appendf(nil, "p%03d/%d", p, k), seq: 1, kind: base.KindSet, value: []byte("v")})
		}
	}
	es = append(es, entry{key: []byte("q"), seq: 1, kind: base.KindSet, value: []byte("short")})
	return es
}

func TestPrefixFilterGetAndPrefixProbe(t *testing.T) {
	for _, prefixOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("prefixOnly=%v", prefixOnly), func(t *testing.T) {
			es := prefixEntries()
			path, props := writeTable(t, t.TempDir(), es, WriterOptions{BloomBitsPerKey: 10, FilterPrefixLen: 5, PrefixOnlyFilter: prefixOnly})
			if props.FilterPrefixLen != 5 || props.PrefixOnlyFilter != prefixOnly {
				t.Fatalf("written properties: prefix %d, prefix only %v", props.FilterPrefixLen, props.PrefixOnlyFilter)
			}
			stats := statistics.New(2)
			r := openTable(t, path, ReaderOptions{Statistics: stats})
			defer r.Close()
			if got := r.Properties(); got.FilterPrefixLen != 5 || got.PrefixOnlyFilter != prefixOnly {
				t.Fatalf("read properties: prefix %d, prefix only %v", got.FilterPrefixLen, got.PrefixOnlyFilter)
			}
			for _, e := range es {
				found, err := r.Get(e.key, base.MaxSeq, func([]byte, base.Kind, uint64) {})
				if err != nil || !found {
					t.Fatalf("Get(%q) = %v, %v", e.key, found, err)
				}
			}
			ruledOut := 0
			for p := range 400 {
				prefix := fmt.Appendf(nil, "p%03d/", p)
				may := r.MayContainPrefix(prefix)
				if p%2 == 0 && !may {
					t.Fatalf("present prefix %q ruled out", prefix)
				}
				if p%2 == 1 && !may {
					ruledOut++
				}
				// A prefix of another length is never ruled out.
				if !r.MayContainPrefix(prefix[:4]) {
					t.Fatalf("prefix %q of another length ruled out", prefix[:4])
				}
			}
			if ruledOut < 180 {
				t.Errorf("only %d of 200 absent prefixes ruled out", ruledOut)
			}
			if got := stats.Ticker(statistics.BloomFilterPrefixUseful); got != uint64(ruledOut) {
				t.Errorf("prefix useful ticker %d, want %d", got, ruledOut)
			}
			if got := stats.Ticker(statistics.BloomFilterPrefixChecked); got != 400 {
				t.Errorf("prefix checked ticker %d, want 400", got)
			}
			// Absent keys under absent prefixes: the filter answers for
			// whole keys or prefixes alike.
			before := stats.Ticker(statistics.BloomFilterUseful)
			for p := 1; p < 400; p += 2 {
				if found, err := r.Get(fmt.Appendf(nil, "p%03d/0", p), base.MaxSeq, nil); err != nil || found {
					t.Fatalf("Get of an absent key = %v, %v", found, err)
				}
			}
			if useful := stats.Ticker(statistics.BloomFilterUseful) - before; useful < 180 {
				t.Errorf("filter ruled out %d of 200 absent keys", useful)
			}
		})
	}
}

func TestPrefixFilterPropertiesRoundTrip(t *testing.T) {
	for _, p := range []Properties{
		{NumEntries: 3, FilterPrefixLen: 8},
		{NumEntries: 3, FilterPrefixLen: 1, PrefixOnlyFilter: true},
		{NumEntries: 3, FilterPrefixLen: 8, NumRangeDeletions: 2, rangeDels: handle{Offset: 100, Len: 20}},
		{NumEntries: 3, NumRangeDeletions: 2, rangeDels: handle{Offset: 100, Len: 20}},
	} {
		got, err := decodeProperties(p.encode(nil))
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		if got.FilterPrefixLen != p.FilterPrefixLen || got.PrefixOnlyFilter != p.PrefixOnlyFilter ||
			got.NumRangeDeletions != p.NumRangeDeletions || got.rangeDels != p.rangeDels {
			t.Errorf("decoded %+v, want %+v", got, p)
		}
	}
	// Three zeros with nothing after them are not a table's properties.
	b := (&Properties{NumEntries: 1}).encode(nil)
	if _, err := decodeProperties(append(b, 0, 0, 0)); err == nil {
		t.Error("zero range-deletion fields without filter contents accepted")
	}
	if _, err := decodeProperties(append(b, 0, 0, 0, 0, 1)); err == nil {
		t.Error("a zero prefix length accepted")
	}
	if _, err := decodeProperties(append(b, 0, 0, 0, 8, 2)); err == nil {
		t.Error("a whole-key field of 2 accepted")
	}
}

// TestPrefixFilterCorruptionDetected flips a byte of a prefix filter
// block: Open must fail with ErrCorruption, not answer from bad bits.
func TestPrefixFilterCorruptionDetected(t *testing.T) {
	path, _ := writeTable(t, t.TempDir(), prefixEntries(), WriterOptions{BloomBitsPerKey: 10, FilterPrefixLen: 5, PrefixOnlyFilter: true})
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	foot := b[len(b)-footerLen:]
	off, n := binary.LittleEndian.Uint64(foot[12:]), binary.LittleEndian.Uint32(foot[20:])
	if n == 0 {
		t.Fatal("no filter block")
	}
	b[off+uint64(rand.Uint32N(n))] ^= 0x10
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, size := openFile(t, path)
	defer f.Close()
	r, err := Open(f, size, ReaderOptions{})
	if err == nil {
		r.Close()
		t.Fatal("a corrupted filter block opened")
	}
	if !errors.Is(err, ErrCorruption) {
		t.Fatalf("error %v does not wrap ErrCorruption", err)
	}
}

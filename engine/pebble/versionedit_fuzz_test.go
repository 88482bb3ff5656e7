package pebble

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/record"
)

// seedRecords returns the records of the MANIFEST of a freshly built
// template database, and its newest WAL's bytes and number.
func seedRecords(f *testing.F) (edits [][]byte, walData []byte, walNum uint32) {
	f.Helper()
	dir := f.TempDir()
	db := openTest(f, testOptions())(dir)
	for i := range 3000 {
		key := []byte{byte(i >> 8), byte(i), 'k'}
		if err := db.Put(key, make([]byte, 100), nil); err != nil {
			f.Fatal(err)
		}
		if i%1000 == 999 {
			if err := db.(*DB).Flush(); err != nil {
				f.Fatal(err)
			}
		}
	}
	if err := db.Compact(nil, nil, -1); err != nil {
		f.Fatal(err)
	}
	for i := range 50 {
		if err := db.Put([]byte{byte(i), 'w'}, []byte("in the WAL"), nil); err != nil {
			f.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		f.Fatal(err)
	}
	manifests, _ := filepath.Glob(filepath.Join(dir, "MANIFEST-*"))
	for _, m := range manifests {
		data, err := os.ReadFile(m)
		if err != nil {
			f.Fatal(err)
		}
		r := record.NewReader(data)
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			edits = append(edits, append([]byte(nil), rec...))
		}
	}
	wals, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, w := range wals {
		num, ok := walNumber(filepath.Base(w))
		if !ok {
			continue
		}
		data, err := os.ReadFile(w)
		if err != nil {
			f.Fatal(err)
		}
		walData, walNum = data, uint32(num)
	}
	if len(edits) < 3 || walData == nil {
		f.Fatalf("template: %d edits, WAL of %d bytes", len(edits), len(walData))
	}
	return edits, walData, walNum
}

// FuzzVersionEdit decodes arbitrary bytes as a version edit, seeded with
// the edits of a real MANIFEST. The decoder must never panic, and what it
// accepts must be well formed: levels below 7, key ranges inside the edit.
func FuzzVersionEdit(f *testing.F) {
	edits, _, _ := seedRecords(f)
	for _, e := range edits {
		f.Add(e)
	}
	f.Add([]byte{104, 1, 9, 10, 0, 0, 0, 1, 2, 1}) // new table 5 without point keys
	f.Add([]byte{103, 0, 7, 10, 0, 0, 1, 2, 66, 5, 69, 0, 1, 3, 4, 1})
	var e versionEdit
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := decodeVersionEdit(b, &e); err != nil {
			return
		}
		for _, a := range e.added {
			if a.level >= maxLevels {
				t.Fatalf("level %d accepted", a.level)
			}
			if a.hasSeqs && len(b) == 0 {
				t.Fatal("a table decoded from nothing")
			}
		}
		for _, d := range e.deleted {
			if d.level >= maxLevels {
				t.Fatalf("level %d accepted", d.level)
			}
		}
		var st manifestState
		st.live, st.named = map[uint64]keyRange{}, map[uint64]struct{}{}
		st.apply(&e)
		for _, a := range e.added {
			if _, ok := st.named[a.num]; !ok {
				t.Fatalf("added table %d not named", a.num)
			}
		}
	})
}

// FuzzWALScan reads arbitrary bytes as a Pebble WAL, seeded with a real
// one. It must never panic, and the sequence numbers it reports must be a
// range read from a batch header in the data.
func FuzzWALScan(f *testing.F) {
	_, data, num := seedRecords(f)
	r := record.NewRecyclableReader(nil, 0)
	if seqs, damage := scanWAL(r, data, num); damage >= 0 || !seqs.any || seqs.last-seqs.first+1 < 50 {
		f.Fatalf("the template's WAL: %+v, damage at %d; want its 50 writes", seqs, damage)
	}
	f.Add(data, num)
	f.Add(data[:len(data)/2], num)
	f.Add(data, num+1)
	f.Fuzz(func(t *testing.T, b []byte, num uint32) {
		seqs, damage := scanWAL(r, b, num)
		if damage >= len(b) {
			t.Fatalf("damage at %d of %d bytes", damage, len(b))
		}
		if !seqs.any {
			return
		}
		if seqs.first > seqs.last {
			t.Fatalf("range %d-%d", seqs.first, seqs.last)
		}
		if len(b) < record.LegacyHeaderSize+12 {
			t.Fatalf("a batch found in %d bytes", len(b))
		}
	})
}

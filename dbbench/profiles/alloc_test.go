package profiles

import (
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// fixedDB answers every Get with one fixed value and drops writes, so that
// the driver's own allocations can be measured.
type fixedDB struct {
	memDB
	value []byte
}

func (d *fixedDB) Put([]byte, []byte, *engine.WriteOptions) error { return nil }
func (d *fixedDB) Delete([]byte, *engine.WriteOptions) error      { return nil }
func (d *fixedDB) Get(_ []byte, fn func([]byte)) (bool, error) {
	fn(d.value)
	return true, nil
}

func fixedStores(id int64) *[storeCount]engine.DB {
	g := NewGenerator(DefaultSeed)
	var p Profile
	g.Create(&p, id)
	record := AppendRecord(nil, &p)
	var dbs [storeCount]engine.DB
	for i := range dbs {
		dbs[i] = &fixedDB{value: AppendUserID(nil, id)}
	}
	dbs[storeProfiles] = &fixedDB{value: record}
	return &dbs
}

// TestWorkerOpsDoNotAllocate checks that insert, reads and update allocate
// nothing in the driver once a worker's buffers have grown.
func TestWorkerOpsDoNotAllocate(t *testing.T) {
	w := newWorker(fixedStores(4), NewGenerator(DefaultSeed))
	w.sum = NewChecksum()
	ops := map[string]func() error{
		"insert":        func() error { return w.insert(4) },
		"getByID":       func() error { return w.mustGetByID(4, &w.cur) },
		"lookupByEmail": func() error { return w.lookupByEmail(4, &w.cur) },
		"update":        func() error { return w.update(4) },
	}
	for name, op := range ops {
		if err := op(); err != nil { // grow the buffers
			t.Fatalf("%s: %v", name, err)
		}
		if n := testing.AllocsPerRun(200, func() { _ = op() }); n != 0 {
			t.Errorf("%s allocates %.1f times per operation", name, n)
		}
	}
}

// BenchmarkCreateEncodeDecode measures the per-profile application cost that
// every write and read pays: generate, serialize, parse, checksum.
func BenchmarkCreateEncodeDecode(b *testing.B) {
	g := NewGenerator(DefaultSeed)
	var p, q Profile
	var buf []byte
	c := NewChecksum()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g.Create(&p, int64(i)+1)
		buf = AppendRecord(buf[:0], &p)
		if err := DecodeRecord(&q, buf); err != nil {
			b.Fatal(err)
		}
		c.AddProfile(&q)
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkPlanIDs measures one plan draw (NextInt64 over 1..100M).
func BenchmarkPlanIDs(b *testing.B) {
	r := NewDotNetRandom(DefaultSeed)
	for b.Loop() {
		r.NextInt64Range(1, 100_000_001)
	}
}

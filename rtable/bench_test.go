package rtable

// Benchmarks of rtable against sst's block format and Pebble's sstable
// (newest format) on the same entries: db_bench keys (the big-endian
// number 2i, '0' padded to the key size; odd numbers are misses between
// present keys) and db_bench-like half-compressible values, one version
// per key at sequence 0, as a bottommost compaction leaves them. The block
// formats use 4 KiB blocks, restart interval 16 and 10 bloom bits per key;
// sst reads through its mapping ("sst-mmap") or a block cache holding the
// whole table ("sst-cache"), Pebble through its cache holding the whole
// table; rtable through its mapping. Every table is read once end to end
// before timing, so the runs measure the read path, not the disk.
//
//	go test -run XXX -bench . -benchtime 200000x -short ./rtable/
//
// Without -short the 10M-entry tables are built and measured too (about
// 4 GB of temporary files). cpu-ns/op is the process's CPU time per
// operation: on a shared machine wall time mostly measures the others.

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/sst"
)

type benchShape struct {
	entries          uint64
	keyLen, valueLen int
}

func (s benchShape) String() string {
	return fmt.Sprintf("%dM/k%dv%d", s.entries/1_000_000, s.keyLen, s.valueLen)
}

func benchShapes(b *testing.B) []benchShape {
	var out []benchShape
	for _, n := range []uint64{1_000_000, 10_000_000} {
		if n > 1_000_000 && testing.Short() {
			continue
		}
		out = append(out, benchShape{n, 8, 50}, benchShape{n, 16, 100})
	}
	return out
}

// fillEntries calls add with every entry of the shape, in order.
func fillEntries(s benchShape, add func(key, value []byte) error) error {
	return fillValues(s, false, add)
}

// fillRecurring is fillEntries with values cut one after another from a
// 1 MiB buffer, as db_bench's RandomGenerator cuts them, so that values
// recur across the table.
func fillRecurring(s benchShape, add func(key, value []byte) error) error {
	return fillValues(s, true, add)
}

func fillValues(s benchShape, recurring bool, add func(key, value []byte) error) error {
	rng := rand.New(rand.NewPCG(1, 1))
	vs := newValueSource(rng, 1<<20)
	key, value := make([]byte, max(8, s.keyLen)), make([]byte, s.valueLen)
	for i := 8; i < s.keyLen; i++ {
		key[i] = '0'
	}
	for i := range s.entries {
		binary.BigEndian.PutUint64(key, 2*i)
		// db_bench's --compression_ratio=0.5 values: random printable
		// bytes, the first half repeated.
		half := (len(value) + 1) / 2
		for j := range half {
			value[j] = byte(' ' + rng.IntN(95))
		}
		copy(value[half:], value[:half])
		v := value
		if recurring {
			v = vs.next(s.valueLen)
		}
		if err := add(key[:s.keyLen], v); err != nil {
			return err
		}
	}
	return nil
}

// builders write a table of a shape at a path and return its size.
var builders = map[string]func(path string, s benchShape) (int64, error){
	"rtable":        func(path string, s benchShape) (int64, error) { return buildRtable(path, s, ValueRaw) },
	"rtable-snappy": func(path string, s benchShape) (int64, error) { return buildRtable(path, s, ValueSnappy) },
	// The same entries with recurring values (fillRecurring).
	"rtable-dict-rec": func(path string, s benchShape) (int64, error) {
		return buildRtableFrom(path, s, ValueDict, fillRecurring)
	},
	"rtable-snappy-rec": func(path string, s benchShape) (int64, error) {
		return buildRtableFrom(path, s, ValueSnappy, fillRecurring)
	},
	"sst-snappy-rec": func(path string, s benchShape) (int64, error) {
		return buildSSTFrom(path, s, sst.CompressionSnappy, fillRecurring)
	},
	"sst":        func(path string, s benchShape) (int64, error) { return buildSST(path, s, sst.CompressionNone) },
	"sst-snappy": func(path string, s benchShape) (int64, error) { return buildSST(path, s, sst.CompressionSnappy) },
	"pebble":     buildPebble,
}

func buildRtable(path string, s benchShape, codec ValueCodec) (int64, error) {
	return buildRtableFrom(path, s, codec, fillEntries)
}

func buildRtableFrom(path string, s benchShape, codec ValueCodec, fill func(benchShape, func(k, v []byte) error) error) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w := NewWriter(f, WriterOptions{BloomBitsPerKey: 10, ValueCompression: codec})
	if err := fill(s, func(k, v []byte) error { return w.Add(k, 0, base.KindSet, v) }); err != nil {
		return 0, err
	}
	p, err := w.Finish()
	return int64(p.FileSize), err
}

func buildSST(path string, s benchShape, c sst.Compression) (int64, error) {
	return buildSSTFrom(path, s, c, fillEntries)
}

func buildSSTFrom(path string, s benchShape, c sst.Compression, fill func(benchShape, func(k, v []byte) error) error) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w := sst.NewWriter(f, sst.WriterOptions{BlockSize: 4096, BlockRestartInterval: 16, BloomBitsPerKey: 10, Compression: c})
	if err := fill(s, func(k, v []byte) error { return w.Add(k, 0, base.KindSet, v) }); err != nil {
		return 0, err
	}
	p, err := w.Finish()
	return int64(p.FileSize), err
}

func buildPebble(path string, s benchShape) (int64, error) {
	f, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return 0, err
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), sstable.WriterOptions{
		BlockSize: 4096, BlockRestartInterval: 16, IndexBlockSize: 4096,
		FilterPolicy: bloom.FilterPolicy(10), TableFormat: sstable.TableFormatMax,
		Compression: sstable.NoCompression,
	})
	if err := fillEntries(s, w.Set); err != nil {
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

var (
	benchMu    sync.Mutex
	benchDir   string
	benchFiles = map[string]string{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchTable returns the path of the format's table of the shape, built
// on first use and kept for the run.
func benchTable(b *testing.B, format string, s benchShape) string {
	benchMu.Lock()
	defer benchMu.Unlock()
	name := fmt.Sprintf("%s-%d-%d-%d", format, s.entries, s.keyLen, s.valueLen)
	if p, ok := benchFiles[name]; ok {
		return p
	}
	if benchDir == "" {
		var err error
		if benchDir, err = os.MkdirTemp("", "rtable-bench"); err != nil {
			b.Fatal(err)
		}
	}
	p := filepath.Join(benchDir, name)
	if _, err := builders[format](p, s); err != nil {
		b.Fatal(err)
	}
	benchFiles[name] = p
	return p
}

// BenchmarkBuild writes a table of each shape in each format.
func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	for _, s := range benchShapes(b) {
		for _, format := range []string{"rtable", "sst", "pebble", "rtable-snappy", "sst-snappy", "rtable-dict-rec", "rtable-snappy-rec", "sst-snappy-rec"} {
			b.Run(s.String()+"/"+format, func(b *testing.B) {
				var size int64
				cpu := cpuTime()
				for b.Loop() {
					var err error
					if size, err = builders[format](filepath.Join(dir, format), s); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu)
				b.ReportMetric(float64(size)/float64(s.entries), "B/entry")
			})
		}
	}
}

// reader is one open table: op returns the function doing one operation
// of a workload for a random number.
type reader interface {
	op(name string, s benchShape) func(n uint64)
	close()
}

var (
	benchSink  int
	benchValue []byte
)

// useValue copies a value out, as db_bench's readrandom does: a read that
// never touches the value's bytes would leave its cache miss unmeasured.
func useValue(v []byte) { benchValue = append(benchValue[:0], v...) }

// benchKeyFor writes the key of number n into key.
func benchKeyFor(key []byte, n uint64) []byte {
	binary.BigEndian.PutUint64(key, n)
	return key
}

func newBenchKey(s benchShape) []byte {
	k := make([]byte, max(8, s.keyLen))
	for i := 8; i < s.keyLen; i++ {
		k[i] = '0'
	}
	return k[:s.keyLen]
}

// nativeTable and nativeIter are what rtable and sst readers share.
type nativeTable interface {
	Get(userKey []byte, snapshot uint64, fn func([]byte, base.Kind, uint64)) (bool, error)
	Close() error
}

type nativeIter interface {
	First() bool
	Next() bool
	SeekGE(userKey []byte) bool
	Key() []byte
	Value() ([]byte, error)
}

// nativeBench runs the workloads on rtable and sst readers alike.
type nativeBench struct {
	r  nativeTable
	it nativeIter
}

func (t *nativeBench) close() { t.r.Close() }

func (t *nativeBench) op(name string, s benchShape) func(uint64) {
	key := newBenchKey(s)
	fn := func(v []byte, _ base.Kind, _ uint64) { useValue(v) }
	it := t.it
	switch name {
	case "GetHit", "GetMiss":
		miss := missOffset(name)
		return func(n uint64) {
			if found, err := t.r.Get(benchKeyFor(key, 2*(n%s.entries)+miss), 1, fn); found == (miss == 1) || err != nil {
				panic(fmt.Sprintf("%s: found %v, %v", name, found, err))
			}
		}
	case "SeekGE":
		return func(n uint64) {
			if it.SeekGE(benchKeyFor(key, n%(2*s.entries-1))) {
				benchSink += len(it.Key())
			}
		}
	}
	it.First()
	values := name == "ScanValues"
	return func(uint64) {
		if !it.Next() {
			it.First()
		}
		benchSink += len(it.Key())
		if values {
			v, _ := it.Value()
			useValue(v)
		}
	}
}

// missOffset is what GetMiss adds to a present key's number: odd numbers
// fall between the table's even ones.
func missOffset(op string) uint64 {
	if op == "GetMiss" {
		return 1
	}
	return 0
}

// warm reads every entry and value once.
func warm(it nativeIter) {
	for ok := it.First(); ok; ok = it.Next() {
		v, _ := it.Value()
		benchSink += len(v)
	}
}

type pebbleBench struct {
	it      sstable.Iterator
	release func()
}

func (t *pebbleBench) close() { t.release() }

func (t *pebbleBench) op(name string, s benchShape) func(uint64) {
	key := newBenchKey(s)
	it := t.it
	switch name {
	case "GetHit", "GetMiss":
		miss := missOffset(name)
		return func(n uint64) {
			k := benchKeyFor(key, 2*(n%s.entries)+miss)
			kv := it.SeekPrefixGE(k, k, 0)
			found := kv != nil && bytes.Equal(kv.K.UserKey, k)
			if found == (miss == 1) {
				panic(name)
			}
			if found {
				v, _, _ := kv.Value(nil)
				useValue(v)
			}
		}
	case "SeekGE":
		return func(n uint64) {
			if kv := it.SeekGE(benchKeyFor(key, n%(2*s.entries-1)), 0); kv != nil {
				benchSink += len(kv.K.UserKey)
			}
		}
	}
	it.First()
	values := name == "ScanValues"
	return func(uint64) {
		kv := it.Next()
		if kv == nil {
			kv = it.First()
		}
		benchSink += len(kv.K.UserKey)
		if values {
			v, _, _ := kv.Value(nil)
			useValue(v)
		}
	}
}

// openBench opens the table of the format in the given mode and reads it
// once end to end.
func openBench(b *testing.B, mode string, s benchShape) reader {
	switch mode {
	case "rtable", "rtable-snappy", "rtable-dict-rec", "rtable-snappy-rec":
		path := benchTable(b, mode, s)
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		st, _ := f.Stat()
		r, err := Open(f, st.Size(), ReaderOptions{})
		if err != nil {
			b.Fatal(err)
		}
		it := r.NewIter()
		warm(it)
		return &nativeBench{r, it}
	case "sst-mmap", "sst-cache", "sst-snappy-mmap", "sst-snappy-cache", "sst-snappy-rec-mmap", "sst-snappy-rec-cache":
		mmap := strings.HasSuffix(mode, "-mmap")
		path := benchTable(b, strings.TrimSuffix(strings.TrimSuffix(mode, "-mmap"), "-cache"), s)
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		st, _ := f.Stat()
		opts := sst.ReaderOptions{Mmap: mmap}
		if !mmap {
			opts.Cache = sst.NewCache(2*st.Size(), -1)
		}
		r, err := sst.Open(f, st.Size(), opts)
		if err != nil {
			b.Fatal(err)
		}
		it := r.NewIter()
		warm(it)
		return &nativeBench{r, it}
	}
	path := benchTable(b, "pebble", s)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := vfs.Default.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		b.Fatal(err)
	}
	c := pebble.NewCache(2 * st.Size())
	h := c.NewHandle()
	var ro sstable.ReaderOptions
	ro.CacheOpts.CacheHandle = h
	ro.CacheOpts.FileNum = 1
	ro.Filters = map[string]sstable.FilterPolicy{bloom.FilterPolicy(10).Name(): bloom.FilterPolicy(10)}
	r, err := sstable.NewReader(context.Background(), readable, ro)
	if err != nil {
		b.Fatal(err)
	}
	it, err := r.NewIter(sstable.NoTransforms, nil, nil, sstable.TableBlobContext{})
	if err != nil {
		b.Fatal(err)
	}
	for kv := it.First(); kv != nil; kv = it.Next() {
		v, _, _ := kv.Value(nil)
		benchSink += len(v)
	}
	return &pebbleBench{it, func() {
		it.Close()
		r.Close()
		h.Close()
		c.Unref()
	}}
}

// BenchmarkRead runs each workload on each format.
func BenchmarkRead(b *testing.B) {
	runReads(b, []string{"GetHit", "GetMiss", "SeekGE", "ScanKeys", "ScanValues"}, []string{"rtable", "sst-mmap", "sst-cache", "pebble"})
}

// BenchmarkReadSnappy compares per-value snappy (rtable) with snappy
// blocks (sst, decompressing on every visit through the mapping, or once
// into a cache that holds the whole table).
func BenchmarkReadSnappy(b *testing.B) {
	runReads(b, []string{"GetHit", "SeekGE", "ScanValues"}, []string{"rtable-snappy", "sst-snappy-mmap", "sst-snappy-cache"})
}

// BenchmarkReadDict compares the dictionary codec with per-value snappy
// and snappy blocks on recurring values (fillRecurring).
func BenchmarkReadDict(b *testing.B) {
	runReads(b, []string{"GetHit", "SeekGE", "ScanValues"}, []string{"rtable-dict-rec", "rtable-snappy-rec", "sst-snappy-rec-cache"})
}

func runReads(b *testing.B, ops, modes []string) {
	for _, s := range benchShapes(b) {
		for _, op := range ops {
			for _, mode := range modes {
				b.Run(fmt.Sprintf("%s/%s/%s", s, op, mode), func(b *testing.B) {
					r := openBench(b, mode, s)
					defer r.close()
					do := r.op(op, s)
					rng := rand.New(rand.NewPCG(7, 7))
					nums := make([]uint64, 1<<16)
					for i := range nums {
						nums[i] = rng.Uint64()
					}
					b.ReportAllocs()
					i := 0
					cpu := cpuTime()
					for b.Loop() {
						do(nums[i&(len(nums)-1)])
						i++
					}
					reportCPU(b, cpu)
				})
			}
		}
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, since time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuTime()-since)/float64(b.N), "cpu-ns/op")
	}
}

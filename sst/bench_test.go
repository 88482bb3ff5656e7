package sst

// Benchmarks on 1M-entry tables, each run side by side with the same
// workload on Pebble's sstable package (newest table format: columnar
// blocks), same block size, restart interval, bloom bits and compression.
// Tables are built once per shape and kept in a temporary directory for
// the whole run. Keep runs short on shared machines, e.g.
//
//	go test -run XXX -bench . -benchtime 200000x ./sst/

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
)

const benchEntries = 1_000_000

type benchShape struct {
	name             string
	keyLen, valueLen int
	compression      Compression
	checksum         ChecksumType
	compressIndex    bool
}

var benchShapes = []benchShape{
	{name: "k16v100", keyLen: 16, valueLen: 100, compression: CompressionNone},
	{name: "k8v50", keyLen: 8, valueLen: 50, compression: CompressionNone},
	{name: "k16v100snappy", keyLen: 16, valueLen: 100, compression: CompressionSnappy},
}

// benchKey writes the key of entry i as db_bench does for a fixed key size:
// the big-endian number, then '0' padding. Entries use even numbers, so odd
// numbers are misses that fall between present keys.
func benchKey(dst []byte, n uint64, keyLen int) []byte {
	dst = dst[:keyLen]
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	copy(dst, b[:min(8, keyLen)])
	for i := 8; i < keyLen; i++ {
		dst[i] = '0'
	}
	return dst
}

// benchValue fills v like db_bench's value generator at
// --compression_ratio=0.5: random letters, each half repeated once.
func benchValue(rng *rand.Rand, v []byte) {
	half := (len(v) + 1) / 2
	for i := range half {
		v[i] = byte(' ' + rng.IntN(95))
	}
	copy(v[half:], v[:half])
}

type benchTables struct {
	native, pebble string
}

var (
	benchDirOnce sync.Once
	benchDir     string
	benchMu      sync.Mutex
	benchBuilt   = map[string]*benchTables{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func benchFiles(b *testing.B, s benchShape) *benchTables {
	benchMu.Lock()
	defer benchMu.Unlock()
	if t, ok := benchBuilt[s.name]; ok {
		return t
	}
	benchDirOnce.Do(func() {
		var err error
		if benchDir, err = os.MkdirTemp("", "sst-bench"); err != nil {
			b.Fatal(err)
		}
	})
	t := &benchTables{native: filepath.Join(benchDir, s.name+".native"), pebble: filepath.Join(benchDir, s.name+".pebble")}
	if _, err := buildNative(t.native, s); err != nil {
		b.Fatal(err)
	}
	if _, err := buildPebble(t.pebble, s); err != nil {
		b.Fatal(err)
	}
	benchBuilt[s.name] = t
	return t
}

func buildNative(path string, s benchShape) (Properties, error) {
	f, err := os.Create(path)
	if err != nil {
		return Properties{}, err
	}
	defer f.Close()
	w := NewWriter(f, WriterOptions{BlockSize: 4096, BlockRestartInterval: 16, BloomBitsPerKey: 10, Compression: s.compression, Checksum: s.checksum, CompressIndex: s.compressIndex})
	rng := rand.New(rand.NewPCG(1, 1))
	key, value := make([]byte, s.keyLen), make([]byte, s.valueLen)
	for i := range uint64(benchEntries) {
		benchValue(rng, value)
		if err := w.Add(benchKey(key, 2*i, s.keyLen), 0, base.KindSet, value); err != nil {
			return Properties{}, err
		}
	}
	return w.Finish()
}

func pebbleCompression(c Compression) *sstable.CompressionProfile {
	if c == CompressionSnappy {
		return sstable.SnappyCompression
	}
	return sstable.NoCompression
}

func buildPebble(path string, s benchShape) (int64, error) {
	f, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return 0, err
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), sstable.WriterOptions{
		BlockSize: 4096, BlockRestartInterval: 16, IndexBlockSize: 4096,
		FilterPolicy: bloom.FilterPolicy(10), TableFormat: sstable.TableFormatMax,
		Compression: pebbleCompression(s.compression),
	})
	rng := rand.New(rand.NewPCG(1, 1))
	key, value := make([]byte, s.keyLen), make([]byte, s.valueLen)
	for i := range uint64(benchEntries) {
		benchValue(rng, value)
		if err := w.Set(benchKey(key, 2*i, s.keyLen), value); err != nil {
			return 0, err
		}
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

// BenchmarkBuild measures writing a 1M-entry table; bytes/op counts raw key
// and value bytes, and file-bytes reports the table size.
func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	for _, s := range benchShapes {
		b.Run(s.name+"/native", func(b *testing.B) {
			b.SetBytes(int64(benchEntries * (s.keyLen + s.valueLen)))
			var size uint64
			cpu := processCPU()
			for b.Loop() {
				p, err := buildNative(filepath.Join(dir, "n.sst"), s)
				if err != nil {
					b.Fatal(err)
				}
				size = p.FileSize
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(size), "file-bytes")
		})
		b.Run(s.name+"/pebble", func(b *testing.B) {
			b.SetBytes(int64(benchEntries * (s.keyLen + s.valueLen)))
			var size int64
			cpu := processCPU()
			for b.Loop() {
				var err error
				if size, err = buildPebble(filepath.Join(dir, "p.sst"), s); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(size), "file-bytes")
		})
	}
}

// benchOp is one read workload: it returns a function doing one operation
// (given a random number) on an open table of the engine.
type benchOp struct {
	name   string
	native func(r *Reader, it *Iter, s benchShape) func(n uint64)
	pebble func(it sstable.Iterator, s benchShape) func(n uint64)
}

var benchSink int

var benchOps = []benchOp{
	{"GetHit",
		func(r *Reader, _ *Iter, s benchShape) func(uint64) {
			key := make([]byte, s.keyLen)
			fn := func(v []byte, _ base.Kind, _ uint64) { benchSink += len(v) }
			return func(n uint64) {
				if found, err := r.Get(benchKey(key, 2*(n%benchEntries), s.keyLen), 1, fn); !found || err != nil {
					panic(fmt.Sprintf("miss %v", err))
				}
			}
		},
		func(it sstable.Iterator, s benchShape) func(uint64) {
			key := make([]byte, s.keyLen)
			return func(n uint64) {
				k := benchKey(key, 2*(n%benchEntries), s.keyLen)
				kv := it.SeekPrefixGE(k, k, 0)
				if kv == nil || !bytes.Equal(kv.K.UserKey, k) {
					panic("miss")
				}
				v, _, _ := kv.Value(nil)
				benchSink += len(v)
			}
		}},
	{"GetMiss",
		func(r *Reader, _ *Iter, s benchShape) func(uint64) {
			key := make([]byte, s.keyLen)
			fn := func(v []byte, _ base.Kind, _ uint64) { benchSink += len(v) }
			return func(n uint64) {
				if found, _ := r.Get(benchKey(key, 2*(n%benchEntries)+1, s.keyLen), 1, fn); found {
					panic("hit")
				}
			}
		},
		func(it sstable.Iterator, s benchShape) func(uint64) {
			key := make([]byte, s.keyLen)
			return func(n uint64) {
				k := benchKey(key, 2*(n%benchEntries)+1, s.keyLen)
				if kv := it.SeekPrefixGE(k, k, 0); kv != nil && bytes.Equal(kv.K.UserKey, k) {
					panic("hit")
				}
			}
		}},
	{"SeekGE",
		func(_ *Reader, it *Iter, s benchShape) func(uint64) {
			key := make([]byte, s.keyLen)
			return func(n uint64) {
				if it.SeekGE(benchKey(key, n%(2*benchEntries-1), s.keyLen)) {
					benchSink += len(it.Key())
				}
			}
		},
		func(it sstable.Iterator, s benchShape) func(uint64) {
			key := make([]byte, s.keyLen)
			return func(n uint64) {
				if kv := it.SeekGE(benchKey(key, n%(2*benchEntries-1), s.keyLen), 0); kv != nil {
					benchSink += len(kv.K.UserKey)
				}
			}
		}},
	{"ScanKeys",
		func(_ *Reader, it *Iter, s benchShape) func(uint64) {
			it.First()
			return func(uint64) {
				if !it.Next() {
					it.First()
				}
				benchSink += len(it.Key())
			}
		},
		func(it sstable.Iterator, s benchShape) func(uint64) {
			it.First()
			return func(uint64) {
				kv := it.Next()
				if kv == nil {
					kv = it.First()
				}
				benchSink += len(kv.K.UserKey)
			}
		}},
	{"ScanValues",
		func(_ *Reader, it *Iter, s benchShape) func(uint64) {
			it.First()
			return func(uint64) {
				if !it.Next() {
					it.First()
				}
				v, _ := it.Value()
				benchSink += len(it.Key()) + len(v)
			}
		},
		func(it sstable.Iterator, s benchShape) func(uint64) {
			it.First()
			return func(uint64) {
				kv := it.Next()
				if kv == nil {
					kv = it.First()
				}
				v, _, _ := kv.Value(nil)
				benchSink += len(kv.K.UserKey) + len(v)
			}
		}},
}

// benchCacheBytes holds every block of the tables, so cached runs measure
// the read path rather than the disk. smallCacheBytes is db_bench's
// default --cache_size, which the tables overflow 8-15 times: those runs
// measure misses, reads from the page cache and eviction.
const (
	benchCacheBytes = 1 << 30
	smallCacheBytes = 8 << 20
)

// BenchmarkRead runs each workload on native tables in cache and mmap
// modes and on Pebble tables with Pebble's cache; GetHit and ScanValues
// also run with db_bench's default 8 MiB cache.
func BenchmarkRead(b *testing.B) {
	for _, s := range benchShapes {
		for _, op := range benchOps {
			for _, mode := range []string{"native-cache", "native-mmap", "pebble-cache", "native-8MiB", "pebble-8MiB"} {
				if strings.HasSuffix(mode, "8MiB") && op.name != "GetHit" && op.name != "ScanValues" {
					continue
				}
				b.Run(fmt.Sprintf("%s/%s/%s", s.name, op.name, mode), func(b *testing.B) {
					t := benchFiles(b, s)
					var do func(uint64)
					switch mode {
					case "pebble-cache", "pebble-8MiB":
						size := int64(benchCacheBytes)
						if mode == "pebble-8MiB" {
							size = smallCacheBytes
						}
						it, closeAll := openPebble(b, t.pebble, size)
						defer closeAll()
						// Warm: one full scan with values loads every block.
						for kv := it.First(); kv != nil; kv = it.Next() {
							v, _, _ := kv.Value(nil)
							benchSink += len(v)
						}
						do = op.pebble(it, s)
					default:
						opts := ReaderOptions{Mmap: mode == "native-mmap"}
						switch mode {
						case "native-cache":
							opts.Cache = NewCache(benchCacheBytes, -1)
						case "native-8MiB":
							opts.Cache = NewCache(smallCacheBytes, -1)
						}
						f, err := os.Open(t.native)
						if err != nil {
							b.Fatal(err)
						}
						st, _ := f.Stat()
						r, err := Open(f, st.Size(), opts)
						if err != nil {
							b.Fatal(err)
						}
						defer r.Close()
						it := r.NewIter()
						defer it.Close()
						for ok := it.First(); ok; ok = it.Next() {
							v, _ := it.Value()
							benchSink += len(v)
						}
						do = op.native(r, it, s)
						b.ReportMetric(float64(st.Size()), "file-bytes")
					}
					rng := rand.New(rand.NewPCG(7, 7))
					nums := make([]uint64, 1<<16)
					for i := range nums {
						nums[i] = rng.Uint64()
					}
					for i := range nums {
						do(nums[i])
					}
					b.ReportAllocs()
					i := 0
					cpu := processCPU()
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

func openPebble(b *testing.B, path string, cacheBytes int64) (sstable.Iterator, func()) {
	f, err := vfs.Default.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		b.Fatal(err)
	}
	c := pebble.NewCache(cacheBytes)
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
	if st, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(st.Size()), "file-bytes")
	}
	return it, func() {
		it.Close()
		r.Close()
		h.Close()
		c.Unref()
	}
}

// processCPU returns the CPU time (user + system) used by the process so
// far. On a shared, oversubscribed machine wall-clock ns/op mostly measures
// the other tenants; CPU ns/op (reported as cpu-ns/op) measures the code.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	}
}

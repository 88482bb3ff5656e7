package sst

import (
	"os"
	"path/filepath"
	"testing"
)

// benchChecksumTypes are the types measured, in RocksDB's number order.
var benchChecksumTypes = []ChecksumType{ChecksumNone, ChecksumCRC32C, ChecksumXXHash, ChecksumXXHash64, ChecksumXXH3}

// BenchmarkBlockChecksum measures one checksum of a 4 KiB block and its
// type byte.
func BenchmarkBlockChecksum(b *testing.B) {
	block := make([]byte, 4097)
	for i := range block {
		block[i] = byte(i * 7)
	}
	for _, typ := range benchChecksumTypes {
		b.Run(typ.String(), func(b *testing.B) {
			b.SetBytes(int64(len(block)))
			var sink uint32
			for b.Loop() {
				sink += typ.sum(block)
			}
			benchSink += int(sink)
		})
	}
}

// BenchmarkChecksumBuild measures writing a 1M-entry table (16-byte keys,
// 100-byte values, no compression) with each checksum type.
func BenchmarkChecksumBuild(b *testing.B) {
	dir := b.TempDir()
	for _, typ := range benchChecksumTypes {
		s := benchShape{name: "k16v100", keyLen: 16, valueLen: 100, checksum: typ}
		b.Run(typ.String(), func(b *testing.B) {
			b.SetBytes(int64(benchEntries * (s.keyLen + s.valueLen)))
			cpu := processCPU()
			for b.Loop() {
				if _, err := buildNative(filepath.Join(dir, "n.sst"), s); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkChecksumScan measures a full scan with values of a 1M-entry
// table written with each checksum type, read with pread and no block
// cache, so that every block read is checked: one op is the whole scan.
func BenchmarkChecksumScan(b *testing.B) {
	dir := b.TempDir()
	for _, typ := range benchChecksumTypes {
		s := benchShape{name: "k16v100", keyLen: 16, valueLen: 100, checksum: typ}
		b.Run(typ.String(), func(b *testing.B) {
			path := filepath.Join(dir, typ.String()+".sst")
			if _, err := buildNative(path, s); err != nil {
				b.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			st, _ := f.Stat()
			r, err := Open(f, st.Size(), ReaderOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			b.SetBytes(int64(benchEntries * (s.keyLen + s.valueLen)))
			cpu := processCPU()
			for b.Loop() {
				it := r.NewIter()
				n := 0
				for ok := it.First(); ok; ok = it.Next() {
					v, err := it.Value()
					if err != nil {
						b.Fatal(err)
					}
					n += len(v)
				}
				if err := it.Close(); err != nil {
					b.Fatal(err)
				}
				benchSink += n
			}
			reportCPU(b, cpu)
		})
	}
}

package rtable

import (
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// BenchmarkDictDecode compares decoding one value coded against a
// dictionary by value codec 2 with zstd (klauspost/compress) given the
// same bytes as a raw-content dictionary, at its best compression, one
// frame per value: db_bench-like 50-byte values cut from a 1 MiB buffer,
// the dictionary chosen from 160,000 of them as a Writer chooses it.
//
//	go test -run XXX -bench DictDecode -benchtime 200000x ./rtable/
func BenchmarkDictDecode(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	vs := newValueSource(rng, 1<<20)
	vals := make([][]byte, 160000)
	for i := range vals {
		vals[i] = vs.next(50)
	}
	rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
	enc := newDictEncoder()
	var scratch []byte
	for _, v := range vals {
		if scratch = enc.encode(scratch[:0], v); len(scratch) > len(v)/2 {
			enc.add(v)
		}
	}
	ze, err := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(1, enc.dict), zstd.WithEncoderCRC(false),
		zstd.WithSingleSegment(true), zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	if err != nil {
		b.Fatal(err)
	}
	zd, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(1, enc.dict), zstd.WithDecoderConcurrency(1))
	if err != nil {
		b.Fatal(err)
	}
	const coded = 1 << 12
	codecs := []struct {
		name   string
		encode func(v []byte) []byte
		decode func(dst, src []byte) []byte
	}{
		{"codec2", func(v []byte) []byte { return enc.encode(nil, v) }, func(dst, src []byte) []byte {
			dst, _ = decodeDictValue(dst, src, enc.dict)
			return dst
		}},
		{"zstd", func(v []byte) []byte { return ze.EncodeAll(v, nil) }, func(dst, src []byte) []byte {
			dst, _ = zd.DecodeAll(src, dst)
			return dst
		}},
	}
	for _, c := range codecs {
		b.Run(c.name, func(b *testing.B) {
			stored := make([][]byte, coded)
			size := 0
			for i := range stored {
				stored[i] = c.encode(vals[i])
				size += len(stored[i])
			}
			var buf []byte
			b.ReportAllocs()
			i := 0
			cpu := cpuTime()
			for b.Loop() {
				buf = c.decode(buf[:0], stored[i&(coded-1)])
				i++
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(size)/coded, "B/value")
			b.ReportMetric(float64(len(enc.dict)), "dict-bytes")
		})
	}
}

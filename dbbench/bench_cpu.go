package dbbench

import (
	"fmt"
	"hash/crc32"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
	"github.com/godbbench/godbbench/internal/xxh32"
	"github.com/zeebo/xxh3"
)

// The engine-independent CPU benchmarks of db_bench: checksums and hashes of
// one block, atomic loads, block compression. They touch no DB, ignore
// --duration and --num, and run the same fixed amount of work in every
// thread, as db_bench's do.

// checksumBytes is what db_bench's ChecksumBenchmark hashes in each thread:
// 5000 MiB, in --block_size pieces (1,280,000 operations of 4096 bytes).
const checksumBytes = 5000 * 1048576

// castagnoli is the CRC-32C table (RocksDB's crc32c::Value, unmasked).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func crc32cOf(b []byte) uint64 { return uint64(crc32.Checksum(b, castagnoli)) }
func xxh32Of(b []byte) uint64  { return uint64(xxh32.Checksum(b, 0)) }
func xxh64Of(b []byte) uint64  { return xxhash.Sum64(b) }
func xxh3Of(b []byte) uint64   { return xxh3.Hash(b) }

func benchCrc32c(r *runner, t *thread) error   { return benchChecksum(r, t, crc32cOf, opCrc) }
func benchXXHash(r *runner, t *thread) error   { return benchChecksum(r, t, xxh32Of, opHash) }
func benchXXHash64(r *runner, t *thread) error { return benchChecksum(r, t, xxh64Of, opHash) }
func benchXXH3(r *runner, t *thread) error     { return benchChecksum(r, t, xxh3Of, opHash) }

// benchChecksum is db_bench's ChecksumBenchmark: hash a block of --block_size
// 'x' bytes until 5000 MiB are hashed, one operation a block, then print the
// sum of the (32-bit truncated) results to stderr as "... val=0x%x\r" so the
// work is not dead, count the bytes and add "(<block_size> per op)". With
// --block_size=0 it never ends, like db_bench's.
func benchChecksum(r *runner, t *thread, hash func([]byte) uint64, op OpType) error {
	t.stats.pinIntervalDB(nil) // no database, as in db_bench
	size := r.opts.BlockSize
	block := make([]byte, size)
	for i := range block {
		block[i] = 'x'
	}
	var val uint32
	var hashed uint64
	for hashed < checksumBytes {
		val += uint32(hash(block))
		t.stats.finishedOps(1, op)
		hashed += uint64(size)
	}
	r.errf("... val=0x%x\r", val)
	t.stats.addBytes(int64(hashed))
	t.stats.addMessage(fmt.Sprintf("(%d per op)", size))
	return nil
}

// benchAcquireLoad is db_bench's AcquireLoad: 100,000 operations of 1000
// atomic (acquire) loads of one pointer.
func benchAcquireLoad(r *runner, t *thread) error {
	t.stats.pinIntervalDB(nil) // no database, as in db_bench
	var dummy int
	var p atomic.Pointer[int]
	p.Store(&dummy)
	var ptr *int
	t.stats.addMessage("(each op is 1000 loads)")
	for count := 0; count < 100000; count++ {
		for range 1000 {
			ptr = p.Load()
		}
		t.stats.finishedOps(1, opOthers)
	}
	if ptr == nil {
		return fmt.Errorf("acquireload: loaded a nil pointer")
	}
	return nil
}

// compressBytes is what db_bench's compress and uncompress benchmarks
// process in each thread: 1 GiB, one --block_size block an operation.
const compressBytes = 1 << 30

// cpuBenchBlock is the block db_bench's Compress and Uncompress work on: the
// first --block_size bytes of a fresh RandomGenerator, that is of the value
// pattern for --compression_ratio.
func cpuBenchBlock(r *runner) []byte {
	size := r.opts.BlockSize
	if size > len(r.valueData) {
		return buildValueData(r.cfg.compressionRatio, size)[:size]
	}
	return r.valueData[:size]
}

// benchCompress is db_bench's Compress: compress the block with
// --compression_type until 1 GiB has been compressed, then report the
// output size as a share of the input, "(output: 55.1%)". A codec that
// fails (one not linked, or none) ends the run after its first operation
// with "(compression failure)" and no bytes.
func benchCompress(r *runner, t *thread) error {
	t.stats.pinIntervalDB(nil) // no database, as in db_bench
	input := cpuBenchBlock(r)
	codec := newBlockCodec(r.opts.CompressionType, len(input))
	var done, produced int64
	ok := true
	for ok && done < compressBytes {
		var out []byte
		out, ok = codec.compress(input)
		produced += int64(len(out))
		done += int64(len(input))
		t.stats.finishedOps(1, opCompress)
	}
	if !ok {
		t.stats.addMessage("(compression failure)")
		return nil
	}
	t.stats.addMessage(fmt.Sprintf("(output: %.1f%%)", float64(produced)*100.0/float64(done)))
	t.stats.addBytes(done)
	return nil
}

// benchUncompress is db_bench's Uncompress: compress the block once, then
// uncompress it until 1 GiB has been produced. When the block does not
// compress (a codec not linked, or none) no operation runs and the message
// is "(compression failure)".
func benchUncompress(r *runner, t *thread) error {
	t.stats.pinIntervalDB(nil) // no database, as in db_bench
	input := cpuBenchBlock(r)
	codec := newBlockCodec(r.opts.CompressionType, len(input))
	compressed, ok := codec.compress(input)
	compressed = append([]byte(nil), compressed...)
	var done int64
	for ok && done < compressBytes {
		_, ok = codec.uncompress(compressed)
		done += int64(len(input))
		t.stats.finishedOps(1, opUncompress)
	}
	if !ok {
		t.stats.addMessage("(compression failure)")
		return nil
	}
	t.stats.addBytes(done)
	return nil
}

package lsm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/record"
	"github.com/godbbench/godbbench/lsm/wal"
)

// TestReadsRocksDBCompressedWAL reads the WAL C++ db_bench 7.8.3 writes
// with --wal_compression=zstd, when it is installed: every record
// decompresses to a write batch of one entry, one per operation.
func TestReadsRocksDBCompressedWAL(t *testing.T) {
	bin, err := exec.LookPath("db_bench")
	if err != nil {
		t.Skip("C++ db_bench not installed")
	}
	dir := t.TempDir()
	const num = 300
	if out, err := exec.Command(bin, "--benchmarks=fillrandom", fmt.Sprintf("--num=%d", num), "--value_size=400",
		"--compression_ratio=0.5", "--wal_compression=zstd", "--seed=1", "--db="+dir).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	records := 0
	for _, name := range logs {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 0 && data[6] != record.SetCompressionType {
			t.Fatalf("%s: db_bench wrote no compression chunk: % x", name, data[:min(len(data), 16)])
		}
		r := wal.NewReader(data)
		r.SetStrictTail(true)
		for {
			rec, err := r.Next()
			if err != nil {
				if torn, _ := r.Torn(); err != io.EOF || torn {
					t.Fatalf("%s: %v", name, err)
				}
				break
			}
			if len(rec) < batchHeaderSize || binary.LittleEndian.Uint32(rec[8:]) != 1 {
				t.Fatalf("%s: record %d is no one-entry write batch: % x", name, records, rec[:min(len(rec), 16)])
			}
			records++
		}
	}
	if records != num {
		t.Fatalf("read %d records from %v, want %d", records, logs, num)
	}
}

// TestRocksDBReadsCompressedWAL has RocksDB's ldb 7.8.3, when it is
// installed, dump a compressed WAL the native engine wrote: every write
// is there, key and value.
func TestRocksDBReadsCompressedWAL(t *testing.T) {
	bin, err := exec.LookPath("ldb")
	if err != nil {
		t.Skip("RocksDB's ldb not installed")
	}
	dir := t.TempDir()
	o := zstdWALOptions()
	o.WriteBufferSize = 4 << 20 // every write in one WAL
	// Every 50th value is 8 KiB, so its record takes the encoder that
	// Huffman-codes literals.
	value := func(i int) string { return strings.Repeat(walTestValue(i), 1+40*boolInt(i%50 == 0)) }
	db := mustOpen(t, dir, o)
	for i := range 300 {
		put(t, db, fmt.Sprintf("key%05d", i), value(i))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	logs := filesOf(t, dir, fileWAL)
	if len(logs) != 1 {
		t.Fatalf("WALs: %v", logs)
	}
	checkNewestWALCompressed(t, dir, true)
	out, err := exec.Command(bin, "dump_wal", "--walfile="+logs[0], "--print_value").CombinedOutput()
	if err != nil {
		t.Fatalf("ldb dump_wal: %v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 300 {
		t.Fatalf("ldb dumped %d lines, want 300:\n%s", len(lines), out)
	}
	for i, line := range lines {
		key := fmt.Sprintf("0x%X", fmt.Sprintf("key%05d", i))
		v := fmt.Sprintf("0x%X", value(i))
		if !strings.Contains(line, "PUT(0) : "+key+" : "+v) {
			t.Fatalf("line %d: %.300s\nwant PUT(0) : %s : %.100s", i, line, key, v)
		}
	}
	if bytes.Contains(out, []byte("Corruption")) {
		t.Fatalf("ldb reports corruption:\n%s", out)
	}
}

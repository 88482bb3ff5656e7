package lsm

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/record"
	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/options"
)

// zstdWALOptions are testOptions with --wal_compression=zstd.
func zstdWALOptions() *options.Options {
	o := testOptions()
	o.Extra = map[string]string{walCompressionKey: "kZSTD"}
	return o
}

// checkNewestWALCompressed fails t unless dir's newest WAL, when it holds
// anything, opens with the compression chunk exactly when want.
func checkNewestWALCompressed(t *testing.T, dir string, want bool) {
	t.Helper()
	logs := filesOf(t, dir, fileWAL)
	if len(logs) == 0 {
		t.Fatalf("no WAL in %s", dir)
	}
	newest := slices.MaxFunc(logs, func(a, b string) int {
		_, na := parseFileName(filepath.Base(a))
		_, nb := parseFileName(filepath.Base(b))
		return int(na) - int(nb)
	})
	data, err := os.ReadFile(newest)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < wal.HeaderSize || data[0] == 0 && data[6] == 0 {
		return // empty, or a mapped WAL no write reached
	}
	if got := data[6] == record.SetCompressionType; got != want {
		t.Fatalf("WAL %s opens with chunk type %d: compressed %v, want %v", newest, data[6], got, want)
	}
}

// fillWAL writes key%05d for i < 300 with values that compress by half,
// through one WAL under o, and closes the DB without flushing.
func fillWAL(t *testing.T, dir string, o *options.Options) {
	db := mustOpen(t, dir, o)
	for i := range 300 {
		put(t, db, fmt.Sprintf("key%05d", i), walTestValue(i))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// walTestValue is value i: 100 random printable bytes, twice.
func walTestValue(i int) string {
	rng := rand.New(rand.NewSource(int64(i)))
	half := make([]byte, 100)
	for j := range half {
		half[j] = ' ' + byte(rng.Intn(95))
	}
	return string(half) + string(half)
}

// TestWALCompressionRecoversEitherWay: a compressed WAL is recovered by an
// open without the option, and a plain WAL by an open with it; every DB
// written with the option writes compressed WALs, smaller ones.
func TestWALCompressionRecoversEitherWay(t *testing.T) {
	sizes := map[bool]int64{}
	for _, writeZstd := range []bool{true, false} {
		dir := t.TempDir()
		o := testOptions()
		if writeZstd {
			o = zstdWALOptions()
		}
		fillWAL(t, dir, o)
		checkNewestWALCompressed(t, dir, writeZstd)
		for _, log := range filesOf(t, dir, fileWAL) {
			st, err := os.Stat(log)
			if err != nil {
				t.Fatal(err)
			}
			sizes[writeZstd] += st.Size()
		}
		reopen := zstdWALOptions()
		if writeZstd {
			reopen = testOptions()
		}
		db := mustOpen(t, dir, reopen)
		for i := range 300 {
			if v, ok := getString(t, db, fmt.Sprintf("key%05d", i)); !ok || v != walTestValue(i) {
				t.Fatalf("compressed WAL %v: key %d: %q, %v", writeZstd, i, v, ok)
			}
		}
		put(t, db, "after", "reopen")
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		checkNewestWALCompressed(t, dir, !writeZstd)
	}
	if sizes[true] >= sizes[false]*9/10 {
		t.Fatalf("compressed WALs hold %d bytes, plain ones %d: values repeated twice should save more than 10%%", sizes[true], sizes[false])
	}
}

// TestWALCompressionOtherTypesOff: RocksDB compresses WALs with zstd only;
// any other type leaves them plain, with RocksDB's LOG warning.
func TestWALCompressionOtherTypesOff(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.Extra = map[string]string{walCompressionKey: "kSnappyCompression"}
	fillWAL(t, dir, o)
	checkNewestWALCompressed(t, dir, false)
	log, err := os.ReadFile(filepath.Join(dir, logName))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "wal_compression is disabled since only zstd is supported") {
		t.Fatalf("LOG lacks the warning:\n%s", log)
	}
}

// compressedDamagedWAL is damagedWAL over a compressed WAL.
func compressedDamagedWAL(t *testing.T, damage func(data []byte, offs []int) []byte) string {
	t.Helper()
	dir := t.TempDir()
	o := zstdWALOptions()
	db := mustOpen(t, dir, o)
	for i := range 300 {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	checkNewestWALCompressed(t, dir, true)
	damageWAL(t, dir, damage)
	return dir
}

// breakFrame damages the zstd frame of the one-chunk record at off, its
// content checksum, and gives the chunk a checksum that matches: the
// chunk decodes, the record does not.
func breakFrame(d []byte, off int) {
	n := int(binary.LittleEndian.Uint16(d[off+4:]))
	d[off+wal.HeaderSize+n-1] ^= 1
	crc := record.MaskCRC(crc32.Checksum(d[off+6:off+wal.HeaderSize+n], record.Castagnoli))
	binary.LittleEndian.PutUint32(d[off:], crc)
}

// TestCompressedWALRecoveryModes: damage to a compressed WAL is judged by
// each wal_recovery_mode as the same damage to a plain one; a record whose
// chunks decode but whose zstd frame does not is damage too, never data.
func TestCompressedWALRecoveryModes(t *testing.T) {
	last := map[int]bool{299: true}
	for _, c := range []struct {
		name   string
		damage func(d []byte, offs []int) []byte
		want   [4]map[int]bool
	}{
		{"middle", func(d []byte, offs []int) []byte {
			d[offs[100]+wal.HeaderSize+3] ^= 1
			return d
		}, [4]map[int]bool{refused, refused, refused, {100: true}}},
		{"torn tail", func(d []byte, offs []int) []byte { return d[:len(d)-3] },
			[4]map[int]bool{last, refused, last, last}},
		{"damaged last record", func(d []byte, offs []int) []byte {
			d[len(d)-1] ^= 1
			return d
		}, [4]map[int]bool{refused, refused, last, last}},
		{"undecodable frame", func(d []byte, offs []int) []byte {
			breakFrame(d, offs[100])
			return d
		}, [4]map[int]bool{refused, refused, refused, {100: true}}},
		{"undecodable last frame", func(d []byte, offs []int) []byte {
			breakFrame(d, offs[299])
			return d
		}, [4]map[int]bool{refused, refused, last, last}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkModes(t, compressedDamagedWAL(t, c.damage), c.want)
		})
	}
}

// TestCompressedRecoveryStoppedAtEveryStep is TestRecoveryStoppedAtEveryStep
// over three compressed WALs, recovered into compressed ones.
func TestCompressedRecoveryStoppedAtEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("TestRecoveryStoppedAtEveryStep covers the same steps over plain WALs")
	}
	src := t.TempDir()
	db := mustOpen(t, src, zstdWALOptions())
	for i := range 300 {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	logs := filesOf(t, src, fileWAL)
	if len(logs) != 1 {
		t.Fatalf("WALs: %v", logs)
	}
	for _, p := range splitWAL(t, logs[0], 100) {
		if data, err := os.ReadFile(p); err != nil || data[6] != record.SetCompressionType {
			t.Fatalf("split WAL %s not compressed (%v)", p, err)
		}
	}
	recoveryStoppedAtEveryStep(t, src, zstdWALOptions())
}

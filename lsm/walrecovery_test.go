package lsm

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/record"
	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/options"
)

// walRecords returns the offset of each record of a WAL file.
func walRecords(t *testing.T, path string) (data []byte, offs []int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := wal.NewReader(data)
	for {
		if _, err := r.Next(); err != nil {
			break
		}
		offs = append(offs, int(r.Offset()))
	}
	return data, offs
}

func modeOptions(mode int, readOnly bool) *options.Options {
	o := testOptions()
	o.WALRecoveryMode = mode
	o.ReadOnly = readOnly
	return o
}

// damagedWAL fills a DB without flushing (one WAL of 300 one-put records),
// applies damage to the WAL's bytes given its record offsets, and returns
// the DB directory.
func damagedWAL(t *testing.T, damage func(data []byte, offs []int) []byte) string {
	t.Helper()
	dir := t.TempDir()
	fillDB(t, dir, false)
	damageWAL(t, dir, damage)
	return dir
}

// damageWAL applies damage to the bytes of dir's only WAL, which must hold
// 300 records, given their offsets.
func damageWAL(t *testing.T, dir string, damage func(data []byte, offs []int) []byte) {
	t.Helper()
	logs := filesOf(t, dir, fileWAL)
	if len(logs) != 1 {
		t.Fatalf("WALs: %v", logs)
	}
	data, offs := walRecords(t, logs[0])
	if len(offs) != 300 {
		t.Fatalf("%d records", len(offs))
	}
	if err := os.WriteFile(logs[0], damage(data, offs), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openWithMode opens a copy of dir under mode, read-write or read-only, and
// checks the keys it recovers, or that it was refused without a change.
func openWithMode(t *testing.T, dir string, mode int, readOnly, wantErr bool, missing map[int]bool) {
	t.Helper()
	cp := t.TempDir()
	copyDir(t, dir, cp)
	if wantErr {
		openRefused(t, cp, modeOptions(mode, readOnly), ErrCorruption, ".log")
		return
	}
	db, err := Open(cp, modeOptions(mode, readOnly), Config{})
	if err != nil {
		t.Fatalf("mode %d: %v", mode, err)
	}
	defer db.Close()
	checkKeys(t, db, missing)
	for i := range missing {
		if _, ok := getString(t, db, fmt.Sprintf("key%05d", i)); ok {
			t.Fatalf("mode %d: key%05d recovered from a damaged record", mode, i)
		}
	}
}

// refused is the outcome of a mode that must fail the open.
var refused = map[int]bool{-1: true}

// checkModes opens copies of dir under modes 0 to 3, read-write and
// read-only: want[m] lists the keys mode m must lose, or is refused.
func checkModes(t *testing.T, dir string, want [4]map[int]bool) {
	t.Helper()
	for _, readOnly := range []bool{false, true} {
		for mode, missing := range want {
			openWithMode(t, dir, mode, readOnly, missing[-1], missing)
		}
	}
}

// TestWALRecoveryModeMiddleDamage: a damaged record with records after it.
func TestWALRecoveryModeMiddleDamage(t *testing.T) {
	dir := damagedWAL(t, func(d []byte, offs []int) []byte {
		d[offs[100]+wal.HeaderSize+3] ^= 1 // a payload byte of record 100
		return d
	})
	checkModes(t, dir, [4]map[int]bool{refused, refused, refused, {100: true}})
}

// TestWALRecoveryModeLengthFlip: a length byte flipped so the fragment
// seems to reach past the end of the WAL, with 40 acknowledged records
// after it, is damage, not a torn tail, in every mode but 3.
func TestWALRecoveryModeLengthFlip(t *testing.T) {
	dir := damagedWAL(t, func(d []byte, offs []int) []byte {
		d[offs[260]+5] = 0x7f
		return d
	})
	checkModes(t, dir, [4]map[int]bool{refused, refused, refused, {260: true}})
}

// TestWALRecoveryModeTornTail: the last record cut short.
func TestWALRecoveryModeTornTail(t *testing.T) {
	dir := damagedWAL(t, func(d []byte, offs []int) []byte { return d[:len(d)-3] })
	last := map[int]bool{299: true}
	checkModes(t, dir, [4]map[int]bool{last, refused, last, last})
}

// TestWALRecoveryModeDamagedLastRecord: the last record's checksum fails,
// nothing after it: point in time recovers up to it.
func TestWALRecoveryModeDamagedLastRecord(t *testing.T) {
	dir := damagedWAL(t, func(d []byte, offs []int) []byte {
		d[len(d)-1] ^= 1
		return d
	})
	last := map[int]bool{299: true}
	checkModes(t, dir, [4]map[int]bool{refused, refused, last, last})
}

// splitWAL moves the records of the WAL at path into WALs of per records
// each: the first stays at path, the others get the numbers after it plus
// 100, 200, ... It returns the WALs' paths in order. The WALs are
// compressed if the WAL at path is.
func splitWAL(t *testing.T, path string, per int) []string {
	t.Helper()
	data, offs := walRecords(t, path)
	r := wal.NewReader(data)
	_, num := parseFileName(filepath.Base(path))
	var paths []string
	var buf bytes.Buffer
	newWriter := func() *wal.Writer { return wal.NewWriter(&buf) }
	if len(data) > 6 && data[6] == record.SetCompressionType {
		c, err := wal.NewCompressor()
		if err != nil {
			t.Fatal(err)
		}
		newWriter = func() *wal.Writer { return wal.NewCompressedWriter(&buf, c) }
	}
	w := newWriter()
	for i := range offs {
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		w.AddRecord(rec)
		if i%per == per-1 || i == len(offs)-1 {
			w.Flush()
			p := path
			if len(paths) > 0 {
				p = walName(filepath.Dir(path), num+uint64(100*len(paths)))
			}
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
			buf.Reset()
			w = newWriter()
		}
	}
	return paths
}

// TestWALRecoveryModeLaterWAL: point in time stops in one WAL, and a later
// WAL holds writes after a gap: the open fails instead of dropping them.
func TestWALRecoveryModeLaterWAL(t *testing.T) {
	dir, logs := filledDir(t, false, fileWAL)
	parts := splitWAL(t, logs[0], 150)
	first := parts[0]
	checkModes(t, dir, [4]map[int]bool{nil, nil, nil, nil})
	// Damage the first WAL's last record: nothing follows it there, but the
	// later WAL's writes do not continue the sequence.
	d, _ := os.ReadFile(first)
	d[len(d)-1] ^= 1
	os.WriteFile(first, d, 0o644)
	checkModes(t, dir, [4]map[int]bool{refused, refused, refused, {149: true}})
}

// TestWALRecoveryResumeIgnoresManifestSeq: a flush records in the MANIFEST
// the last sequence of writes in the active WAL, unsynced then. If that WAL
// then loses its tail (or all of it) and the next WAL starts right after
// the MANIFEST's sequence, the writes between are lost all the same: modes
// 0 and 2 refuse the open (they replayed the next WAL past the gap).
func TestWALRecoveryResumeIgnoresManifestSeq(t *testing.T) {
	for _, c := range []struct {
		name string
		cut  func(d []byte) []byte
		lost map[int]bool // what mode 3 loses
	}{
		{"torn tail", func(d []byte) []byte { return d[:len(d)-3] }, map[int]bool{149: true}},
		{"torn first record", func(d []byte) []byte { return d[:10] }, keySet(0, 150)},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, logs := filledDir(t, false, fileWAL)
			parts := splitWAL(t, logs[0], 150) // sequences 1-150, 151-300
			changed := 0
			rewriteManifest(t, dir, func(e *versionEdit) {
				if e.hasLastSeq {
					e.setLastSeq(150)
					changed++
				}
			})
			if changed == 0 {
				t.Fatal("no MANIFEST edit records a last sequence")
			}
			checkModes(t, dir, [4]map[int]bool{nil, nil, nil, nil})
			d, err := os.ReadFile(parts[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(parts[0], c.cut(d), 0o644); err != nil {
				t.Fatal(err)
			}
			checkModes(t, dir, [4]map[int]bool{refused, refused, refused, c.lost})
		})
	}
}

// TestWALRecoveryResumeAfterTornRecord: a WAL that ends in a torn copy of
// the record the next WAL starts with (a write that failed there and was
// written again) lost nothing: every mode but 1 recovers every key, the
// read-only open as the read-write one. (The read-only replay counted no
// batch toward the continuity check and refused it.)
func TestWALRecoveryResumeAfterTornRecord(t *testing.T) {
	dir, logs := filledDir(t, false, fileWAL)
	parts := splitWAL(t, logs[0], 150) // sequences 1-150, 151-300
	first, err := os.ReadFile(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	second, err := os.ReadFile(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	torn := append(first, second[:wal.HeaderSize+4]...) // record 150 cut short
	if err := os.WriteFile(parts[0], torn, 0o644); err != nil {
		t.Fatal(err)
	}
	checkModes(t, dir, [4]map[int]bool{nil, refused, nil, nil})
}

// keySet is the set from..to-1.
func keySet(from, to int) map[int]bool {
	m := map[int]bool{}
	for i := from; i < to; i++ {
		m[i] = true
	}
	return m
}

func TestWALRecoveryModeOutOfRange(t *testing.T) {
	for _, m := range []int{-1, 4} {
		if _, err := Open(t.TempDir(), modeOptions(m, false), Config{}); err == nil {
			t.Fatalf("wal_recovery_mode %d accepted", m)
		}
	}
}

// TestWALRecoveryNotesInLOG: damage that a mode lets pass is reported in
// LOG, so dropped or skipped records are not silent.
func TestWALRecoveryNotesInLOG(t *testing.T) {
	dir := damagedWAL(t, func(d []byte, offs []int) []byte {
		d[offs[100]+wal.HeaderSize+3] ^= 1
		return d
	})
	db, err := Open(dir, modeOptions(options.WALSkipAnyCorruptedRecords, false), Config{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	log, err := os.ReadFile(filepath.Join(dir, logName))
	if err != nil || !bytes.Contains(log, []byte("skipping damaged records (wal_recovery_mode=3): wal: corruption at offset")) {
		t.Fatalf("LOG: %v\n%s", err, log)
	}
	var last int
	dir = damagedWAL(t, func(d []byte, offs []int) []byte {
		last = offs[299]
		return d[:len(d)-3]
	})
	mustOpen(t, dir, testOptions()).Close()
	log, err = os.ReadFile(filepath.Join(dir, logName))
	if err != nil || !bytes.Contains(log, []byte(fmt.Sprintf("stopped at offset %d: torn tail", last))) {
		t.Fatalf("LOG: %v\n%s", err, log)
	}
	dir = damagedWAL(t, func(d []byte, offs []int) []byte {
		d[len(d)-1] ^= 1
		return d
	})
	mustOpen(t, dir, testOptions()).Close()
	log, err = os.ReadFile(filepath.Join(dir, logName))
	if err != nil || !bytes.Contains(log, []byte(fmt.Sprintf("stopped at offset %d: wal: corruption at offset %d: checksum mismatch", last, last))) {
		t.Fatalf("LOG: %v\n%s", err, log)
	}
}

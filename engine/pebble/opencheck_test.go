package pebble

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/godbbench/godbbench/internal/record"
)

// manifestOf returns the path of dir's only MANIFEST.
func manifestOf(t *testing.T, dir string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "MANIFEST-*"))
	if err != nil || len(m) != 1 {
		t.Fatalf("MANIFESTs in %s: %v, %v", dir, m, err)
	}
	return m[0]
}

// TestManifestFlipsRefused flips each bit position of a MANIFEST in turn.
// Pebble's own reader took every one of them for a torn tail and opened an
// earlier state of the database; the check refuses each, except a flip in a
// chunk's length that makes the chunk run past the end of the file, which
// is what a torn append looks like (RocksDB accepts that too).
func TestManifestFlipsRefused(t *testing.T) {
	dir, _ := corruptTemplate(t, testOptions())
	path := manifestOf(t, dir)
	clean, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := readManifestBytes(clean); err != nil {
		t.Fatalf("clean MANIFEST refused: %v", err)
	}
	lengthBytes := map[int]bool{}
	for off := 0; off+record.LegacyHeaderSize <= len(clean); {
		length := int(binary.LittleEndian.Uint16(clean[off+4:]))
		lengthBytes[off+4], lengthBytes[off+5] = true, true
		off += record.LegacyHeaderSize + length
	}
	refused := 0
	for off := range clean {
		data := append([]byte(nil), clean...)
		data[off] ^= 1 << (off % 8)
		if readManifestBytes(data) != nil {
			refused++
		} else if !lengthBytes[off] {
			t.Errorf("flip at offset %d of %d accepted", off, len(clean))
		}
	}
	t.Logf("%d of %d flips refused", refused, len(clean))

	// Through Open: the flip is refused and nothing in the directory changes.
	data := append([]byte(nil), clean...)
	data[len(data)/2] ^= 0x10
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	openRefused(t, dir, "Corruption: "+path+": ")
}

// readManifestBytes reads a MANIFEST's bytes as the open check does.
func readManifestBytes(data []byte) error {
	var st manifestState
	return replayManifest(record.NewReader(nil), data, &st)
}

// openRefused opens dir, expects an error starting with want, and checks
// that the directory did not change.
func openRefused(t *testing.T, dir, want string) {
	t.Helper()
	before := dirState(t, dir)
	db, err := Opener{}.Open(dir, testOptions(), nil)
	if err == nil {
		db.Close()
		t.Fatalf("%s opened; want an error starting %q", dir, want)
	}
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want prefix %q", err, want)
	}
	if after := dirState(t, dir); after != before {
		t.Errorf("the refused open changed the directory:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestManifestTornTailAccepted checks that every truncation, which is what a
// crash in the middle of an append leaves, and zeros after the last record
// (an unwritten tail) pass the check.
func TestManifestTornTailAccepted(t *testing.T) {
	dir, _ := corruptTemplate(t, testOptions())
	clean, err := os.ReadFile(manifestOf(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(clean) {
		if err := readManifestBytes(clean[:n]); err != nil {
			t.Errorf("MANIFEST cut to %d bytes refused: %v", n, err)
		}
	}
	if err := readManifestBytes(append(clean, make([]byte, 4096)...)); err != nil {
		t.Errorf("zero tail refused: %v", err)
	}
	withJunk := append(append(clean, make([]byte, 100)...), 1)
	if readManifestBytes(withJunk) == nil {
		t.Error("data after a zeroed header accepted")
	}
}

// TestMarkerMissingRefused deletes the MANIFEST marker: Pebble would open
// the directory as a new database and delete every table and WAL. The open
// is refused and the directory is left as it was.
func TestMarkerMissingRefused(t *testing.T) {
	dir, _ := corruptTemplate(t, testOptions())
	markers, err := filepath.Glob(filepath.Join(dir, "marker.manifest.*"))
	if err != nil || len(markers) != 1 {
		t.Fatalf("markers %v, %v", markers, err)
	}
	if err := os.Remove(markers[0]); err != nil {
		t.Fatal(err)
	}
	openRefused(t, dir, "Corruption: "+dir+": no MANIFEST marker")
	// A creation killed between the first MANIFEST and its marker leaves
	// that MANIFEST alone: it held no data, and the open makes the database.
	created := t.TempDir()
	if err := os.WriteFile(filepath.Join(created, firstManifest), []byte("interrupted"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkBeforeOpen(vfs.Default, created, ""); err != nil {
		t.Errorf("an interrupted creation: %v", err)
	}
	if err := openTest(t, testOptions())(created).Close(); err != nil {
		t.Fatal(err)
	}
	// A first MANIFEST beside a WAL is a database that lost its marker.
	lost := t.TempDir()
	for _, name := range []string{firstManifest, "000002.log"} {
		if err := os.WriteFile(filepath.Join(lost, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkBeforeOpen(vfs.Default, lost, ""); err == nil || !strings.Contains(err.Error(), "no MANIFEST marker") {
		t.Errorf("a first MANIFEST beside a WAL, no marker: %v", err)
	}
	// A directory with only unrelated files is still a new database, even
	// when their names end as Pebble's do.
	other := t.TempDir()
	for _, name := range []string{"notes.txt", "app.log", "x.sst", "MANIFEST-old", ".log"} {
		if err := os.WriteFile(filepath.Join(other, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkBeforeOpen(vfs.Default, other, ""); err != nil {
		t.Errorf("directory with unrelated files: %v", err)
	}
	db := openTest(t, testOptions())(other)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"notes.txt", "app.log", "x.sst", "MANIFEST-old", ".log"} {
		if _, err := os.Stat(filepath.Join(other, name)); err != nil {
			t.Errorf("unrelated file %s: %v", name, err)
		}
	}
	if err := checkBeforeOpen(vfs.Default, filepath.Join(other, "missing"), ""); err != nil {
		t.Errorf("missing directory: %v", err)
	}
}

// TestRocksDBFormatRefused opens directories laid out as RocksDB and the
// native engine write them: the open fails saying what they are, and
// nothing in them changes. Pebble alone called them "written in format
// major version 1".
func TestRocksDBFormatRefused(t *testing.T) {
	for _, c := range []struct {
		files  []string
		writer string
	}{
		{[]string{"CURRENT", "IDENTITY", "MANIFEST-000005", "000004.log", "OPTIONS-000007", "LOG", "LOCK"}, "RocksDB"},
		{[]string{"CURRENT", "MANIFEST-000001", "000002.log", "000003.sst", "LOCK"}, "RocksDB or the native engine"},
	} {
		dir := t.TempDir()
		for _, f := range c.files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte("MANIFEST-000005\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		openRefused(t, dir, "Invalid argument: "+dir+": a RocksDB-format database (CURRENT, no Pebble marker), written by "+c.writer+";")
	}
}

// liveWAL returns the path, number and bytes of the template's WAL that
// holds its WAL-only writes, and the offset where the last of its records
// starts.
func liveWAL(t *testing.T, dir string) (string, uint32, []byte, int) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		num, ok := walNumber(e.Name())
		if !ok {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		last := -1
		r := record.NewRecyclableReader(data, uint32(num))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
			last = int(r.Offset())
		}
		if last > 0 {
			return path, uint32(num), data, last
		}
	}
	t.Fatal("no WAL with records")
	return "", 0, nil, 0
}

// TestWALFlipsRefused flips each byte of the live records of a WAL in turn:
// Pebble replayed up to the flip and silently dropped every later write.
// The check refuses each flip that valid records follow; a flip in the last
// record is a torn tail (RocksDB's point-in-time recovery drops it too).
func TestWALFlipsRefused(t *testing.T) {
	dir, _ := corruptTemplate(t, testOptions())
	path, num, clean, last := liveWAL(t, dir)
	r := record.NewRecyclableReader(nil, 0)
	if _, off := scanWAL(r, clean, num); off >= 0 {
		t.Fatalf("clean WAL refused at %d", off)
	}
	for off := 0; off < last; off++ {
		data := append([]byte(nil), clean...)
		data[off] ^= 1 << (off % 8)
		if _, damage := scanWAL(r, data, num); damage < 0 {
			t.Fatalf("flip at offset %d of the live records (last record at %d) accepted", off, last)
		}
	}
	for n := range last + 64 {
		if _, off := scanWAL(r, clean[:n], num); off >= 0 {
			t.Fatalf("WAL cut to %d bytes refused at %d", n, off)
		}
	}
	data := append([]byte(nil), clean...)
	data[last/2] ^= 0x04
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	openRefused(t, dir, "Corruption: "+path+": a damaged record at offset ")
}

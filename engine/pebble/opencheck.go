package pebble

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/atomicfs"
	"github.com/godbbench/godbbench/internal/record"
)

// Checks made before pebble.Open, for damage Pebble v2.1.7 takes for
// something else and then deletes data over: the two below, a WAL damaged
// in its middle (walcheck.go), and a MANIFEST that lost its last edits
// (manifestcheck.go).
//
// The MANIFEST marker. Pebble finds its MANIFEST through a marker file
// named marker.manifest.<iteration>.<MANIFEST file name> (Pebble's CURRENT;
// format_major_version.go and vfs/atomicfs/marker.go in Pebble). With the
// marker gone, Pebble opens the directory as a new database and deletes
// every table and WAL as obsolete. So a directory with no marker (and no
// CURRENT, which older Pebble formats used) that holds a MANIFEST, a table,
// a blob file or a WAL is refused, and nothing is deleted.
//
// The MANIFEST's records. The MANIFEST is a log in Pebble's record format
// (record/record.go in Pebble, LevelDB's log format): 32 KiB blocks, each a
// run of chunks, each chunk a 7-byte header then its payload:
//
//	bytes 0-3  CRC-32C (Castagnoli) of byte 6 and the payload, masked as
//	           LevelDB masks it: rotate right by 15 bits, add 0xa282ead8;
//	           little-endian
//	bytes 4-5  payload length, little-endian
//	byte  6    chunk type: 1 full record, 2 first, 3 middle, 4 last chunk
//	           of a record
//
// A chunk never crosses a block boundary; fewer than 7 bytes left in a block
// are zeros, and the writer zero-fills the rest of a block it leaves. Pebble
// reads the MANIFEST with a reader that reports any bad chunk in the last
// block as an unexpected EOF, which Pebble takes for a torn tail: it opens
// the database as of the edits before the damage, then deletes the tables
// and WALs that later edits had made live (a flipped byte in a MANIFEST lost
// data silently). The check reads the chunks with internal/record's reader
// and accepts only what a crash in the middle of an append leaves: a last
// chunk cut short by the end of the file, or zeros from there to the end.
// A bad checksum, a bad type, a chunk crossing a block boundary, or bytes
// after a zeroed header is a Corruption error naming the file and offset,
// as RocksDB's MANIFEST reading (kTolerateCorruptedTailRecords) reports it.
// Pebble acts on an edit only once it is synced, so an edit cut short made
// nothing obsolete (but see manifestcheck.go for a torn tail with a table
// no edit names).

// checkBeforeOpen returns a Corruption error when dir (with its WALs in
// walDir, when set) is a damaged Pebble database of any of these kinds, and
// nil for a sound one, an empty one or a missing one.
func checkBeforeOpen(fsys vfs.FS, dir, walDir string) error {
	_, err := checkBeforeOpenKeeping(fsys, dir, walDir)
	return err
}

// checkBeforeOpenKeeping is checkBeforeOpen that also returns the paths of
// the tables the open must not let Pebble delete (manifestcheck.go).
func checkBeforeOpenKeeping(fsys vfs.FS, dir, walDir string) ([]string, error) {
	names, err := fsys.List(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	manifest, err := atomicfs.ReadMarker(fsys, dir, "manifest")
	if err != nil {
		return nil, fmt.Errorf("Corruption: %s: reading the MANIFEST marker: %w", dir, err)
	}
	if manifest == "" {
		if walDir != "" && walDir != dir {
			if wals, err := fsys.List(walDir); err == nil {
				names = append(names, wals...)
			}
		}
		return nil, checkNoMarker(dir, names)
	}
	path := fsys.PathJoin(dir, manifest)
	data, err := readWhole(fsys, path)
	if err != nil {
		return nil, err
	}
	r := record.NewReader(nil)
	r.SetCorruptionError(errDamagedRecord)
	var st manifestState
	if err := replayManifest(r, data, &st); err != nil {
		return nil, fmt.Errorf("Corruption: %s: %w", path, err)
	}
	walReader := record.NewRecyclableReader(nil, 0)
	wals, err := checkWALs(fsys, walReader, dir, names, nil)
	if err != nil {
		return nil, err
	}
	if walDir != "" && walDir != dir {
		names, err := fsys.List(walDir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if wals, err = checkWALs(fsys, walReader, walDir, names, wals); err != nil {
			return nil, err
		}
	}
	return checkTables(fsys, r, dir, path, &st, names, wals)
}

// errDamagedRecord is what the check's record reading errors wrap.
var errDamagedRecord = errors.New("a damaged record")

// checkWALs scans the WALs among names, the files of dir (walcheck.go),
// with r and appends the sequence numbers each holds to wals.
func checkWALs(fsys vfs.FS, r *record.Reader, dir string, names []string, wals []walSeqs) ([]walSeqs, error) {
	for _, name := range names {
		if num, ok := walNumber(name); ok {
			seqs, err := checkWAL(fsys, r, fsys.PathJoin(dir, name), num)
			if err != nil {
				return nil, err
			}
			wals = append(wals, seqs)
		}
	}
	return wals, nil
}

// checkNoMarker refuses a directory without a MANIFEST marker that holds
// files only a database has, but for a lone first MANIFEST (a creation
// killed before its marker), which Pebble then writes again. One with a CURRENT file and a MANIFEST is a
// RocksDB-format database (RocksDB's, or the native engine's): Pebble v2
// reads CURRENT only for its own oldest formats, which it no longer
// supports, and reported such a directory as "written in format major
// version 1".
func checkNoMarker(dir string, names []string) error {
	if err := rocksdbFormat(dir, names); err != nil {
		return err
	}
	for _, name := range names {
		if name == firstManifest {
			// Pebble makes a new database's first MANIFEST before its
			// marker: alone, it is a creation a kill interrupted, which
			// never held data (no table, blob file or WAL exists yet).
			continue
		}
		if numbered(name, "MANIFEST-", "") || numbered(name, "", ".sst") ||
			numbered(name, "", ".blob") || numbered(name, "", ".log") {
			return fmt.Errorf("Corruption: %s: no MANIFEST marker (marker.manifest.*) but %s is there: "+
				"not opening it as a new database, which would delete it", dir, name)
		}
	}
	return nil
}

// rocksdbFormat refuses a directory without a MANIFEST marker (names are
// its entries) that holds a RocksDB-format database: CURRENT and a
// MANIFEST, RocksDB's or the native engine's (RocksDB's when IDENTITY is
// there too), or IDENTITY, which only RocksDB writes, beside a MANIFEST, a
// table or a WAL.
func rocksdbFormat(dir string, names []string) error {
	current, identity, manifest, data := false, false, false, false
	for _, name := range names {
		current = current || name == "CURRENT"
		identity = identity || name == "IDENTITY"
		manifest = manifest || numbered(name, "MANIFEST-", "")
		data = data || numbered(name, "", ".sst") || numbered(name, "", ".log")
	}
	if !(current && manifest) && !(identity && (manifest || data)) {
		return nil
	}
	writer := "RocksDB or the native engine"
	if identity {
		writer = "RocksDB"
	}
	return fmt.Errorf("Invalid argument: %s: a RocksDB-format database (CURRENT, no Pebble marker), "+
		"written by %s; the pebble engine cannot open it", dir, writer)
}

// firstManifest is the MANIFEST Pebble writes when it creates a database.
const firstManifest = "MANIFEST-000001"

// numbered reports whether name is prefix, a decimal file number, suffix:
// the way Pebble names its files (000123.sst, MANIFEST-000001). Other files
// (app.log, notes.sst) are not Pebble's, and Pebble leaves them alone.
func numbered(name, prefix, suffix string) bool {
	num, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	num, ok = strings.CutSuffix(num, suffix)
	return ok && isNumber(num)
}

// readWhole reads the file at path, which the database needs: a missing one
// is a Corruption error.
func readWhole(fsys vfs.FS, path string) ([]byte, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return nil, fmt.Errorf("Corruption: %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("IO error: While reading %s: %w", path, err)
	}
	return data, nil
}

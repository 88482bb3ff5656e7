package pebble

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/godbbench/godbbench/internal/record"
)

// The MANIFEST's tables against the directory's, checked before pebble.Open.
//
// A MANIFEST cut at a record boundary is a valid, older MANIFEST: Pebble
// opens the state it describes and deletes, as obsolete, every table of
// the directory it does not list, including the tables the lost edits had
// made live (RocksDB 7.8.3 does the same). So before Pebble sees the
// directory, its MANIFEST's edits are replayed (versionedit.go) and every
// table file of the directory must be one of:
//
//   - listed: named by an edit of the MANIFEST, live or deleted by a later
//     edit (Pebble deletes the latter, rightly), or named by an older
//     MANIFEST still in the directory (Pebble keeps the previous one; each
//     new MANIFEST starts with a snapshot of the live tables, so a table an
//     older one names and the new one does not was deleted);
//   - redundant: a table no MANIFEST names each of whose entries either
//     has a sequence number at most the largest of the listed tables' and
//     a key inside the key range of a live table (an unfinished
//     compaction's output: its entries are its inputs', which are live),
//     or has a sequence number above that which the WALs Pebble replays
//     hold (an unfinished flush's output: its memtable is in those WALs),
//     or, when the newest OPTIONS file says disable_wal=true, any sequence
//     number above that (a flush the kill stopped in a database written
//     without a WAL: the check has nothing to compare it with);
//   - incomplete: a file that does not open as a table (no footer), which
//     is what a table write stopped by a crash leaves. An edit names a table
//     only once it is written and synced.
//
// A MANIFEST that ends in an edit cut short (a torn tail: Pebble ignores
// it) and a complete, redundant table no MANIFEST names are the two sides
// of one question the bytes cannot answer: was the cut edit, the one that
// named the table, synced before the damage cut it (so that the table was
// live), or never (a disk that filled up, or a machine that stopped, in
// the middle of the append: then the table is an unfinished flush's or
// compaction's output)? A process kill does not leave a torn tail: Pebble
// writes an edit with one write call, two when it crosses a 32 KiB block
// boundary. Either way the table's entries are elsewhere, so the open goes
// ahead, but the table is kept (keepfs.go): Pebble finds it obsolete and
// its deletion is skipped, once. Pebble starts a new MANIFEST, with no torn
// tail, at the first edit after an open (the flush of the replayed WAL,
// which puts the entries in a named table); the open after that lets
// Pebble delete the table.
//
// Flushes write sequence numbers in increasing order, so a table that a lost
// flush edit named holds sequence numbers above every listed table's, and
// after the edit Pebble deleted the WAL that held them; a compaction to the
// last level may set its output's sequence numbers to zero, and a table a
// lost edit made of tables since deleted then has keys no live table's
// range holds (unless a live table's range happens to hold them: the check
// cannot tell those keys from a live table's, and accepts them). Such a
// table is none of the above. The directory is then refused with a Corruption error
// naming the table and the MANIFEST, before Pebble deletes anything.

// manifestState is what replaying a MANIFEST's edits gives.
type manifestState struct {
	edits   int
	torn    bool                // bytes of an edit cut short follow the last complete one
	logNum  uint64              // the oldest WAL Pebble replays
	live    map[uint64]keyRange // disk files of the live tables
	named   map[uint64]struct{} // every table and backing file an edit names
	maxSeq  uint64              // the largest sequence number of a named table
	lastSeq uint64
	nextNum uint64
}

// replayManifest replays the edits of a MANIFEST's bytes, read with r (reset
// to data). It stops at a torn tail and returns an error for damage and for
// an edit that does not decode.
func replayManifest(r *record.Reader, data []byte, st *manifestState) error {
	*st = manifestState{live: map[uint64]keyRange{}, named: map[uint64]struct{}{}}
	var e versionEdit
	r.Reset(data)
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			st.torn, _ = r.Torn()
			return nil
		}
		if err != nil {
			return err
		}
		if err := decodeVersionEdit(rec, &e); err != nil {
			return fmt.Errorf("edit %d at offset %d: %w", st.edits+1, r.Offset(), err)
		}
		st.apply(&e)
	}
}

// apply applies one edit: its deletions, then its additions, as Pebble does
// (a table moved to another level is in both).
func (st *manifestState) apply(e *versionEdit) {
	st.edits++
	if e.hasLogNum {
		st.logNum = e.logNum
	}
	if e.hasNextFileNum {
		st.nextNum = e.nextFileNum
	}
	if e.hasLastSeq {
		st.lastSeq = e.lastSeq
	}
	for _, d := range e.deleted {
		delete(st.live, d.num)
	}
	for _, num := range e.removedBackings {
		delete(st.live, num)
	}
	for _, t := range e.added {
		r := st.live[t.backing] // a virtual table's backing may have several
		r.widen(t.lo, t.hi)
		st.live[t.backing] = r
		st.named[t.num], st.named[t.backing] = struct{}{}, struct{}{}
		if t.hasSeqs {
			st.maxSeq = max(st.maxSeq, t.largest)
		}
	}
	for _, num := range e.backings {
		if _, ok := st.live[num]; !ok {
			st.live[num] = keyRange{} // a backing with no table range yet
		}
		st.named[num] = struct{}{}
	}
}

// keyRange is the closed range of user keys [lo, hi]; empty when hi is
// nil.
type keyRange struct{ lo, hi []byte }

// widen widens r to hold [lo, hi], copying what it keeps.
func (r *keyRange) widen(lo, hi []byte) {
	if r.hi == nil || bytes.Compare(lo, r.lo) < 0 {
		r.lo = bytes.Clone(lo)
	}
	if r.hi == nil || bytes.Compare(hi, r.hi) > 0 {
		r.hi = append([]byte{}, hi...)
	}
}

// keyCover answers whether a key lies in one of a set of key ranges, in
// logarithmic time: the ranges sorted by their low keys, each with the
// highest high key of it and the ranges before it.
type keyCover struct {
	ranges []keyRange // hi is the running maximum
}

func newKeyCover(live map[uint64]keyRange) keyCover {
	c := keyCover{ranges: make([]keyRange, 0, len(live))}
	for _, r := range live {
		if r.hi != nil {
			c.ranges = append(c.ranges, r)
		}
	}
	slices.SortFunc(c.ranges, func(a, b keyRange) int { return bytes.Compare(a.lo, b.lo) })
	for i := 1; i < len(c.ranges); i++ {
		if bytes.Compare(c.ranges[i].hi, c.ranges[i-1].hi) < 0 {
			c.ranges[i].hi = c.ranges[i-1].hi
		}
	}
	return c
}

// holds reports whether a range holds key.
func (c keyCover) holds(key []byte) bool {
	// The ranges whose low key is at most key are the first n.
	n := sort.Search(len(c.ranges), func(i int) bool { return bytes.Compare(c.ranges[i].lo, key) > 0 })
	return n > 0 && bytes.Compare(key, c.ranges[n-1].hi) <= 0
}

// checkTables checks the tables among names (the files of dir) against
// st, the state of the MANIFEST at path, and the WALs of the database; r
// reads older MANIFESTs. It returns the paths of the tables the open must
// keep though Pebble will find them obsolete.
func checkTables(fsys vfs.FS, r *record.Reader, dir, path string, st *manifestState, names []string, wals []walSeqs) ([]string, error) {
	if st.edits == 0 {
		return nil, fmt.Errorf("Corruption: %s: no complete version edit", path)
	}
	var keep []string
	named, maxSeq := st.named, st.maxSeq
	var older manifestState
	for _, name := range names {
		if !numbered(name, "MANIFEST-", "") || fsys.PathJoin(dir, name) == path {
			continue
		}
		old, err := fsys.Open(fsys.PathJoin(dir, name))
		if err != nil {
			continue
		}
		b, err := io.ReadAll(old)
		old.Close()
		if err != nil {
			continue
		}
		// A damaged older MANIFEST only names fewer tables: the check is then
		// stricter, never looser.
		_ = replayManifest(r, b, &older)
		for num := range older.named {
			named[num] = struct{}{}
		}
		maxSeq = max(maxSeq, older.maxSeq)
	}

	replayed := make([]seqRange, 0, len(wals))
	for _, w := range wals {
		if w.any && w.num >= st.logNum {
			replayed = append(replayed, w.seqRange)
		}
	}

	live := newKeyCover(st.live)
	walless := writtenWithoutWAL(fsys, dir, names)
	for _, name := range names {
		if !numbered(name, "", ".sst") {
			continue
		}
		num, err := strconv.ParseUint(strings.TrimSuffix(name, ".sst"), 10, 64)
		if err != nil {
			continue
		}
		if _, ok := named[num]; ok {
			continue
		}
		tpath := fsys.PathJoin(dir, name)
		err = scanTable(fsys, tpath, func(key []byte, seq uint64) error {
			if seq > maxSeq {
				if !walless && !covered(seq, replayed) {
					return fmt.Errorf("sequence number %d, which neither the MANIFEST's tables (up to %d) "+
						"nor the WALs from %06d.log hold", seq, maxSeq, st.logNum)
				}
				return nil
			}
			if live.holds(key) {
				return nil
			}
			return fmt.Errorf("key %q outside every live table", key)
		})
		if errors.Is(err, errIncompleteTable) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("Corruption: %s: a table not in %s, with %v: "+
				"the MANIFEST has lost edits (opening it would delete the table)", tpath, path, err)
		}
		if st.torn {
			keep = append(keep, tpath)
		}
	}
	return keep, nil
}

// writtenWithoutWAL reports whether the newest OPTIONS file among names
// holds disable_wal=true: the last process wrote no WAL, so the entries of
// a flush it left unfinished are in no WAL either.
func writtenWithoutWAL(fsys vfs.FS, dir string, names []string) bool {
	v, _ := newestOptionsValue(fsys, dir, names, "disable_wal")
	return v == "true"
}

// newestOptionsValue returns the value of the first "key=value" line of
// the newest OPTIONS file among names (Pebble writes one at each open,
// OPTIONS-<file number>, an INI file), and false when there is no such
// file or line.
func newestOptionsValue(fsys vfs.FS, dir string, names []string, key string) (string, bool) {
	newest, newestNum := "", uint64(0)
	for _, name := range names {
		if !numbered(name, "OPTIONS-", "") {
			continue
		}
		if num, err := strconv.ParseUint(strings.TrimPrefix(name, "OPTIONS-"), 10, 64); err == nil && num >= newestNum {
			newest, newestNum = name, num
		}
	}
	if newest == "" {
		return "", false
	}
	f, err := fsys.Open(fsys.PathJoin(dir, newest))
	if err != nil {
		return "", false
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return "", false
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), key+"="); ok {
			return v, true
		}
	}
	return "", false
}

// covered reports whether one of ranges holds seq.
func covered(seq uint64, ranges []seqRange) bool {
	for _, r := range ranges {
		if r.first <= seq && seq <= r.last {
			return true
		}
	}
	return false
}

package pebble

import (
	"context"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// errIncompleteTable is returned by scanTable for a file that does not
// open as a table: no footer, or a footer that does not decode, which is
// what a table write stopped by a crash leaves.
var errIncompleteTable = errors.New("not a complete table")

// scanTable calls visit with the user key and sequence number of every
// entry of the table at path (point keys, then the start keys of range
// deletions and range keys), and stops at the first error visit returns.
// It reads the table with Pebble's own sstable reader, the whole of it: the
// MANIFEST check calls it only for tables the MANIFEST does not name, which
// a clean database does not have.
func scanTable(fsys vfs.FS, path string, visit func(key []byte, seq uint64) error) (err error) {
	reader, err := openTable(fsys, path)
	if err != nil {
		return err
	}
	defer reader.Close()
	defer func() {
		// Pebble's readers panic on some damage; the table is then damaged,
		// not merely incomplete.
		if p := recover(); p != nil {
			err = fmt.Errorf("reading the table: %v", p)
		}
	}()
	points, err := reader.NewIter(sstable.NoTransforms, nil, nil, sstable.AssertNoBlobHandles)
	if err != nil {
		return err
	}
	for kv := points.First(); kv != nil && err == nil; kv = points.Next() {
		err = visit(kv.K.UserKey, uint64(kv.K.SeqNum()))
	}
	if cerr := points.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	ctx := context.Background()
	dels, err := reader.NewRawRangeDelIter(ctx, sstable.NoFragmentTransforms, sstable.NoReadEnv)
	if err != nil {
		return err
	}
	rangeKeys, err := reader.NewRawRangeKeyIter(ctx, sstable.NoFragmentTransforms, sstable.NoReadEnv)
	if err != nil {
		if dels != nil {
			dels.Close()
		}
		return err
	}
	for _, it := range pair(dels, rangeKeys) {
		if it == nil {
			continue
		}
		var verr error
		s, err := it.First()
		for ; s != nil && err == nil && verr == nil; s, err = it.Next() {
			for i := 0; i < len(s.Keys) && verr == nil; i++ {
				verr = visit(s.Start, uint64(s.Keys[i].SeqNum()))
			}
		}
		it.Close()
		if err == nil {
			err = verr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// pair holds a and b in an array of their type, which may be one that
// cannot be named here: the span iterators of scanTable are of a type
// in a Pebble-internal package.
func pair[T any](a, b T) [2]T { return [2]T{a, b} }

// openTable opens the table at path with Pebble's own sstable reader. A
// file that does not decode as a table gives an error wrapping
// errIncompleteTable.
func openTable(fsys vfs.FS, path string) (*sstable.Reader, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return nil, err
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	reader, err := sstable.NewReader(context.Background(), readable, sstable.ReaderOptions{})
	if err != nil {
		readable.Close()
		return nil, fmt.Errorf("%w: %v", errIncompleteTable, err)
	}
	return reader, nil
}

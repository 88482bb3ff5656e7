package lsm

import (
	"github.com/godbbench/godbbench/blob"
	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/sst"
)

// Reads resolve blob indexes (blob_index.go) to the values they name: Get
// through its getter when the table hands it one, iterators lazily in the
// table iterator's Value, so a key-only scan never reads a blob file. A
// blob read error ends the Get with that error, and makes an iterator
// invalid with Error set.

// resolveBlob returns the value the blob index idx names, as a value entry;
// on error it records it in g and returns a tombstone, which ends the
// lookup.
func (g *getter) resolveBlob(idx []byte) ([]byte, base.Kind) {
	if g.err != nil {
		return nil, base.KindDelete
	}
	if g.db == nil {
		g.err = errNoBlobReader
		return nil, base.KindDelete
	}
	v, err := g.db.readBlob(g.key, idx, &g.blobBuf)
	if err != nil {
		g.err = err
		return nil, base.KindDelete
	}
	return v, base.KindSet
}

// errNoBlobReader: a lookup that cannot resolve blob indexes met one.
var errNoBlobReader = corruptKind("lsm: Corruption: blob index where no blob file can be read")

// blobResolver is a table iterator's blob state: the DB that reads blob
// files (nil: blob indexes are handed out as they are, for compactions)
// and its read buffer.
type blobResolver struct {
	db  *DB
	buf blob.Buffer
}

// kind maps a blob index to a value when the iterator resolves them.
func (r *blobResolver) kind(k base.Kind) base.Kind {
	if k == base.KindBlobIndex && r.db != nil {
		return base.KindSet
	}
	return k
}

// value loads the value of it's entry, resolving a blob index when the
// iterator resolves them.
func (r *blobResolver) value(it *sst.Iter) ([]byte, error) {
	v, err := it.Value()
	if err != nil || r.db == nil || base.Kind(it.Kind()) != base.KindBlobIndex {
		return v, err
	}
	return r.db.readBlob(it.Key(), v, &r.buf)
}

// readBlobs is the DB through which the walk's tables resolve blob
// indexes: none for a compaction's inputs.
func (l *levelIter) readBlobs() *DB {
	if l.compaction {
		return nil
	}
	return l.db
}

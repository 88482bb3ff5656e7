package lsm

import (
	"bufio"
	"cmp"
	"fmt"
	"slices"

	"github.com/godbbench/godbbench/blob"
	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/ratelimit"
)

// blobSink is the blob side of one flush or compaction. It moves values of
// at least min_blob_size into blob files it rolls at blob_file_size (when
// the output level takes blob files), relocates the values of the blob
// files garbage collection picked (numbered below gcBelow), and counts,
// per input blob file, the blob bytes the inputs referenced and the
// outputs still reference: the difference is the garbage the edit
// records (RocksDB's BlobGarbageMeter).
type blobSink struct {
	db      *DB
	write   bool   // outputs take blob files
	gcBelow uint64 // relocate values of blob files numbered below this
	// pri is the rate limiter priority of the files: High for a flush,
	// Low for a compaction (outputfile.go).
	pri ratelimit.Priority

	w    *blob.Writer
	f    WritableFile
	bw   *bufio.Writer
	cur  *blobFileMeta
	outs []*blobFileMeta

	inflow, outflow map[uint64]blobGarbage
	idx             []byte
	buf             blob.Buffer
	err             error
}

// newBlobSink returns the sink of a flush or compaction writing level.
// Garbage collection picks the oldest age_cutoff fraction of v's blob
// files, as RocksDB does.
func (db *DB) newBlobSink(v *version, level int, compaction bool) *blobSink {
	s := &blobSink{db: db, write: db.blobOpts.writesBlobs(level), pri: ratelimit.High}
	if compaction {
		s.pri = ratelimit.Low
	}
	if compaction && db.blobOpts.gc && len(v.blobs) > 0 {
		nums := make([]uint64, 0, len(v.blobs))
		for n := range v.blobs {
			nums = append(nums, n)
		}
		slices.Sort(nums)
		if cut := int(db.blobOpts.ageCutoff * float64(len(nums))); cut > 0 {
			if cut < len(nums) {
				s.gcBelow = nums[cut]
			} else {
				s.gcBelow = nums[len(nums)-1] + 1
			}
		}
	}
	return s
}

func (s *blobSink) count(m *map[uint64]blobGarbage, key []byte, x blobIndex) {
	if *m == nil {
		*m = map[uint64]blobGarbage{}
	}
	g := (*m)[x.fileNum]
	g.fileNum = x.fileNum
	g.count++
	g.bytes += x.recordBytes(key)
	(*m)[x.fileNum] = g
}

// noteInput counts a blob index entry read from the inputs (v, or the
// error loading it).
func (s *blobSink) noteInput(key, v []byte, err error) {
	if err != nil {
		s.fail(err)
		return
	}
	x, err := decodeBlobIndex(v)
	if err != nil {
		s.fail(err)
		return
	}
	s.count(&s.inflow, key, x)
}

func (s *blobSink) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// resolve returns the value a blob index of the inputs names.
func (s *blobSink) resolve(key, idx []byte) ([]byte, error) {
	return s.db.readBlob(key, idx, &s.buf)
}

// add decides how an output entry is stored: a blob index kept, a value
// moved into a blob file (returned as a new blob index), or the entry as
// it is. The returned value is valid until the next call.
func (s *blobSink) add(key []byte, kind base.Kind, value []byte) (base.Kind, []byte, error) {
	if s.err != nil {
		return kind, value, s.err
	}
	if kind == base.KindBlobIndex {
		x, err := decodeBlobIndex(value)
		if err != nil {
			return kind, value, err
		}
		if x.fileNum >= s.gcBelow {
			s.count(&s.outflow, key, x)
			return kind, value, nil
		}
		if value, err = s.resolve(key, value); err != nil {
			return kind, value, err
		}
		kind = base.KindSet
	}
	if kind != base.KindSet || !s.write || uint64(len(value)) < s.db.blobOpts.minSize {
		return kind, value, nil
	}
	if s.w != nil && s.w.EstimatedSize() >= s.db.blobOpts.fileSize {
		if err := s.finishFile(); err != nil {
			return kind, value, err
		}
	}
	if s.w == nil {
		if err := s.startFile(); err != nil {
			return kind, value, err
		}
	}
	off, size, c, err := s.w.Add(key, value)
	if err != nil {
		return kind, value, fmt.Errorf("lsm: write blob file %d: %w", s.cur.num, err)
	}
	s.idx = blobIndex{fileNum: s.cur.num, offset: off, size: size, compression: c}.encode(s.idx[:0])
	return base.KindBlobIndex, s.idx, nil
}

func (s *blobSink) startFile() error {
	num := s.db.mu.vs.newFileNum()
	f, err := s.db.createOutput(blobName(s.db.dir, num), s.pri)
	if err != nil {
		return fmt.Errorf("lsm: create blob file: %w", err)
	}
	s.f, s.bw, s.cur = f, bufio.NewWriterSize(f, 256<<10), &blobFileMeta{num: num}
	if s.w, err = blob.NewWriter(s.bw, s.db.blobOpts.compression); err != nil {
		return err
	}
	return nil
}

// finishFile writes the footer of the open blob file and syncs it.
func (s *blobSink) finishFile() error {
	props, err := s.w.Finish()
	if err == nil {
		err = s.bw.Flush()
	}
	if err == nil {
		err = s.f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	s.w = nil
	if err != nil {
		return fmt.Errorf("lsm: write blob file %d: %w", s.cur.num, err)
	}
	s.cur.size, s.cur.count, s.cur.blobBytes, s.cur.checksum = props.FileSize, props.Count, props.BlobBytes, props.Checksum
	s.outs = append(s.outs, s.cur)
	s.cur = nil
	return nil
}

// finish completes the last blob file and adds the sink's blob files and
// garbage to e.
func (s *blobSink) finish(e *versionEdit) error {
	if s.err != nil {
		return s.err
	}
	if s.w != nil {
		if err := s.finishFile(); err != nil {
			return err
		}
	}
	e.blobAdded = append(e.blobAdded, s.outs...)
	for num, in := range s.inflow {
		out := s.outflow[num]
		if in.bytes > out.bytes {
			e.blobGarbage = append(e.blobGarbage, blobGarbage{fileNum: num, count: in.count - out.count, bytes: in.bytes - out.bytes})
		}
	}
	slices.SortFunc(e.blobGarbage, func(a, b blobGarbage) int { return cmp.Compare(a.fileNum, b.fileNum) })
	return nil
}

// abort removes the blob files written: no MANIFEST names them.
func (s *blobSink) abort() {
	if s.w != nil {
		s.f.Close()
		s.db.fs.Remove(blobName(s.db.dir, s.cur.num))
		s.w = nil
	}
	for _, f := range s.outs {
		s.db.fs.Remove(blobName(s.db.dir, f.num))
	}
	s.outs = nil
}

// resolveBlobBase makes the value a blob index of the inputs names the
// base of the merge run's operands.
func (c *compactionIter) resolveBlobBase(key, idx []byte) error {
	if c.blobs == nil {
		return fmt.Errorf("%w: blob index in a flush's input", ErrCorruption)
	}
	c.blobs.noteInput(key, idx, nil)
	v, err := c.blobs.resolve(key, idx)
	if err != nil {
		return err
	}
	c.ops.setBase(v)
	return nil
}

// finishBlobs completes a flush's or compaction's blob files and
// records them and its garbage in e when the tables were written (err nil);
// otherwise, or when that fails, it removes the outputs.
func (db *DB) finishBlobs(s *blobSink, e *versionEdit, outs []*fileMeta, err error) error {
	if err == nil {
		err = s.finish(e)
	}
	if err != nil {
		s.abort()
		for _, m := range outs {
			db.fs.Remove(tableName(db.dir, m.num))
		}
	}
	return err
}

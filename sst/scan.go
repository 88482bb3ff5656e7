package sst

// Scans that never ask for values. An Iter reads key blocks alone until
// values are asked for; a table in a merged scan whose keys are all
// overwritten in newer tables never has a value asked for, so such a scan
// made one pread per key block, with no read-ahead (which reads whole
// pairs). On the default db_bench sequence at --num=1000000 (the L1 table
// under three L0 tables written over it) pread was 11% of readseq's CPU.
//
// So a third key block load in a row in one direction (i+1 or i-1 of the
// one before, both ways counted) switches the Iter to whole pairs, and the
// pair buffer's read-ahead takes over: a few memory copies of value blocks
// it may never use cost less than a system call per key block. A key-only
// iterator (SetKeysOnly) keeps reading key blocks alone.

// scanRun counts key block loads that follow one another.
type scanRun struct {
	last     int // the block loaded last; -2 before any
	run      int // loads in a row, each next to the one before
	keysOnly bool
}

// scanRunPairs is the run length from which key block loads read pairs.
const scanRunPairs = 3

func (s *scanRun) reset() { s.last, s.run = -2, 0 }

// load records a load of key block i and reports whether the iterator
// should read whole pairs from now on.
func (s *scanRun) load(i int) bool {
	if i == s.last+1 || i == s.last-1 {
		s.run++
	} else {
		s.run = 1
	}
	s.last = i
	return !s.keysOnly && s.run >= scanRunPairs
}

// SetKeysOnly promises that Value will not be called (RocksDB's key-only
// scans, IterOptions.KeysOnly): the iterator then reads key blocks alone
// however long it scans, instead of switching to whole pairs.
func (t *Iter) SetKeysOnly(keysOnly bool) { t.scan.keysOnly = keysOnly }

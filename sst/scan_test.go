package sst

import "testing"

// TestIterKeyScanReadsPairsAhead checks that a scan that never asks for a
// value, in either direction, reads key blocks alone for its first loads
// and then whole pairs with read-ahead (far fewer reads than blocks, every
// entry right), and that a key-only iterator reads exactly the key blocks,
// one read each.
func TestIterKeyScanReadsPairsAhead(t *testing.T) {
	es, r := manyPairTable(t, 17)
	keyBytes := 0
	for i := range r.blocks.len() {
		keyBytes += int(r.blocks.at(i).keyLen) + blockTrailerLen
	}
	for _, backward := range []bool{false, true} {
		for _, keysOnly := range []bool{false, true} {
			it := r.NewIter()
			it.SetKeysOnly(keysOnly)
			charged, reads := 0, 0
			it.SetReadCharge(func(n int) { charged += n; reads++ })
			seen := 0
			var ok bool
			step := it.Next
			if backward {
				step, ok = it.Prev, it.Last()
			} else {
				ok = it.First()
			}
			for ; ok; ok = step() {
				i := seen
				if backward {
					i = len(es) - 1 - seen
				}
				checkEntry(t, it, es[i], false)
				seen++
			}
			if it.Error() != nil || seen != len(es) {
				t.Fatalf("backward %v, keys only %v: %d of %d entries, err %v", backward, keysOnly, seen, len(es), it.Error())
			}
			if keysOnly {
				if reads != r.blocks.len() || charged != keyBytes {
					t.Errorf("backward %v, keys only: %d reads of %d bytes, want one per key block, %d bytes", backward, reads, charged, keyBytes)
				}
			} else if reads > r.blocks.len()/5 || it.pair.window != maxReadahead {
				t.Errorf("backward %v: %d reads for %d pairs, window %d; want reads ahead", backward, reads, r.blocks.len(), it.pair.window)
			}
			it.Close()
		}
	}
}

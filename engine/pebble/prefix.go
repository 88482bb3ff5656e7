package pebble

import (
	"bytes"
	"strconv"

	"github.com/cockroachdb/pebble/v2"

	"github.com/godbbench/godbbench/options"
)

// The prefix extractor. With --prefix_size = N > 0 the DB's Comparer
// splits a key into its first N bytes (the whole key when shorter) and the
// rest, which makes Pebble's bloom filters hold those prefixes instead of
// whole keys, as RocksDB's filters do under rocksdb.FixedPrefix.N with
// whole_key_filtering off: Get probes a key's prefix, and a prefix seek
// (SeekPrefixGE, --prefix_same_as_start) skips the tables whose filter
// rules the prefix out. The order is bytewise as before: for two keys the
// bytewise order of their prefixes, then of their remainders, is their
// bytewise order.
//
// The comparer is named "godbbench.FixedPrefix.N", and Pebble records the
// name in the MANIFEST and refuses to open a DB made under another one, so
// a DB made without a prefix extractor, or with another length, is
// refused at open with Pebble's error naming both comparers: its filters
// hold other keys than the ones the new setting would probe.

// prefixSeekLen is the length of the prefix that iterators' SeekGE keeps
// to: --prefix_size under --prefix_same_as_start, else 0.
func prefixSeekLen(o *options.Options) int {
	if o.Read.PrefixSameAsStart {
		return o.PrefixSize
	}
	return 0
}

// prefixComparerName is the name of the comparer of prefix length n.
func prefixComparerName(n int) string { return "godbbench.FixedPrefix." + strconv.Itoa(n) }

// prefixComparer is Pebble's default (bytewise) comparer with keys split
// after n bytes.
func prefixComparer(n int) *pebble.Comparer {
	c := *pebble.DefaultComparer
	c.Name = prefixComparerName(n)
	c.Split = func(key []byte) int { return min(len(key), n) }
	c.Compare = bytes.Compare
	c.Equal = bytes.Equal
	c.ComparePointSuffixes = bytes.Compare
	c.CompareRangeSuffixes = bytes.Compare
	c.ImmediateSuccessor = func(dst, a []byte) []byte { return immediatePrefixSuccessor(dst, a, n) }
	return &c
}

// immediatePrefixSuccessor appends the smallest key above prefix key a
// (at most n bytes) that is a prefix key too: a+"\x00" when a is shorter
// than n, else a with its trailing 0xff bytes dropped and its last byte
// incremented (a itself when it is all 0xff: no n-byte key follows it).
func immediatePrefixSuccessor(dst, a []byte, n int) []byte {
	if len(a) < n {
		return append(append(dst, a...), 0)
	}
	end := len(a)
	for end > 0 && a[end-1] == 0xff {
		end--
	}
	if end == 0 {
		return append(dst, a...)
	}
	dst = append(dst, a[:end]...)
	dst[len(dst)-1]++
	return dst
}

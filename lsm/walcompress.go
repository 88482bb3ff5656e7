package lsm

import (
	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/options"
)

// WAL compression (--wal_compression, RocksDB's wal_compression). With
// zstd every WAL the DB creates is a compressed log (lsm/wal, "Compressed
// logs"): its records are zstd frames of the write batches, encoded by
// one encoder the DB keeps. Recovery reads a WAL either way, whatever the
// option says now: the log itself tells. RocksDB 7.8.3 compresses its WAL
// with zstd only and turns any other type off with a LOG warning; so does
// the native engine, in RocksDB's words.

// walCompressionKey is the option's name in options.Options.Extra, where
// the driver puts it in RocksDB's spelling ("kZSTD") when set.
const walCompressionKey = "wal_compression"

// prepareWALCompression reads the option and makes the DB's compressor
// (db.walCompressor stays nil without compression).
func (db *DB) prepareWALCompression(o *options.Options) error {
	switch o.Extra[walCompressionKey] {
	case "", "kNoCompression", "none":
		return nil
	case "kZSTD", "zstd":
		c, err := wal.NewCompressor()
		if err != nil {
			return err
		}
		db.walCompressor = c
		return nil
	}
	db.mu.recoveryNotes = append(db.mu.recoveryNotes, "wal_compression is disabled since only zstd is supported")
	return nil
}

// newWALWriter returns the writer of a new WAL, f: compressed when the
// option asks.
func (db *DB) newWALWriter(f WritableFile) *wal.Writer {
	if db.walCompressor != nil {
		return wal.NewCompressedWriter(f, db.walCompressor)
	}
	return wal.NewWriter(f)
}

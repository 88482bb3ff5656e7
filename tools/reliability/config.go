package reliability

import (
	"strings"

	"github.com/godbbench/godbbench/options"

	// The engines the probes can name.
	_ "github.com/godbbench/godbbench/engine/native"
	_ "github.com/godbbench/godbbench/engine/pebble"
	_ "github.com/godbbench/godbbench/engine/rocksdb"
)

// Config is how a probe opens an engine. Every probe uses small write
// buffers and tables (64 KiB) and no compression, so a few thousand writes
// make many flushes and tables and a byte flip lands in stored bytes.
type Config struct {
	Sync        bool // every write synchronous (db_bench --sync)
	MmapWrite   bool // WAL written through a mapping (--mmap_write)
	MmapRead    bool // tables read through mappings (--mmap_read)
	AutoCompact bool // background compactions on (level0 trigger 2)
	// DisableWAL writes nothing to the WAL (--disable_wal): a write is
	// durable only once a flush has put it in a table, and a kill loses
	// the rest.
	DisableWAL bool
}

// Name is the configuration in the words of db_bench flags, for reports.
func (c Config) Name() string {
	var f []string
	if c.Sync {
		f = append(f, "sync")
	} else {
		f = append(f, "no sync")
	}
	if c.MmapWrite {
		f = append(f, "mmap_write")
	}
	if c.MmapRead {
		f = append(f, "mmap_read")
	}
	if c.DisableWAL {
		f = append(f, "disable_wal")
	}
	return strings.Join(f, ", ")
}

func (c Config) options() *options.Options {
	o := options.Default()
	o.WriteBufferSize = 64 << 10
	o.TargetFileSizeBase = 64 << 10
	o.MaxBytesForLevelBase = 256 << 10
	o.CompressionType = "none"
	o.Level0FileNumCompactionTrigger = 2
	o.DisableAutoCompactions = !c.AutoCompact
	o.Sync = c.Sync
	o.MmapWrite = c.MmapWrite
	o.MmapRead = c.MmapRead
	o.DisableWAL = c.DisableWAL
	return o
}

package options

import "strconv"

// UniversalOption is the field of compaction_options_universal named
// field as an unsigned number, def when no flag or file set it (db_bench
// leaves RocksDB's default in place for a flag at 0).
func (o *Options) UniversalOption(field string, def uint64) uint64 {
	return o.extraUint(universal+field, def)
}

// FIFOOption is the field of compaction_options_fifo named field as an
// unsigned number, def when nothing set it.
func (o *Options) FIFOOption(field string, def uint64) uint64 {
	return o.extraUint(fifo+field, def)
}

// FIFOAllowCompaction is compaction_options_fifo's allow_compaction,
// db_bench's default (true) when nothing set it.
func (o *Options) FIFOAllowCompaction() bool {
	return o.Extra[fifo+"allow_compaction"] != "false"
}

// extraUint reads an unsigned option from Extra, def when it is absent or
// not a number (the option parser has checked the text).
func (o *Options) extraUint(name string, def uint64) uint64 {
	v, ok := o.Extra[name]
	if !ok {
		return def
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return def
	}
	return n
}

package options

// FileChecksums reports whether a whole-file checksum generator is set:
// db_bench's --file_checksum, or file_checksum_gen_factory in an OPTIONS
// file, both kept in Extra under RocksDB's option name. Without one,
// RocksDB's VerifyFileChecksums refuses to run.
func (o *Options) FileChecksums() bool {
	v := o.Extra["file_checksum_gen_factory"]
	return v != "" && v != "nullptr"
}

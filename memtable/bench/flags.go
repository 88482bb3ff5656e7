package bench

import (
	"io"

	"github.com/godbbench/godbbench/dbbench/flags"
	"github.com/godbbench/godbbench/internal/gflags"
)

// Flags are memtablerep_bench's command-line flags: RocksDB 7.8.3's names,
// types and defaults (defined once, in dbbench/flags), plus ToplingDB's
// three additions.
type Flags struct {
	flags.MemtablerepFlags

	// ToplingDB additions. Reverse makes readseq scan backwards; the other
	// two are accepted: every rep here is zero-copy and concurrent already.
	EnableZeroCopy      bool
	Reverse             bool
	UseConcurrentInsert bool
}

// parseFlags parses args (without the program name) the way gflags does. It
// returns done=true with an exit code when the program must stop (help,
// version or a bad flag; gflags has printed the message).
func parseFlags(args []string, stdout, stderr io.Writer) (f *Flags, code int, done bool) {
	fs, mf := flags.NewMemtablerepFlagSet("memtablerep_bench")
	fs.SetOutput(stdout, stderr)
	f = &Flags{}
	fs.BoolVar(&f.EnableZeroCopy, "enable_zero_copy", false, "read without copying (ToplingDB); always the case here")
	fs.BoolVar(&f.Reverse, "reverse", false, "readseq scans in reverse order (ToplingDB)")
	fs.BoolVar(&f.UseConcurrentInsert, "use_concurrent_insert", false, "use the concurrent insert path (ToplingDB); always the case here")
	if _, err := fs.Parse(args); err != nil {
		if e, ok := err.(*gflags.ExitError); ok {
			return nil, e.Code, true
		}
		io.WriteString(stderr, err.Error()+"\n")
		return nil, 1, true
	}
	f.MemtablerepFlags = *mf
	return f, 0, false
}

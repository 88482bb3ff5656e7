package memtablerepbench

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// parseTranscript is what parseFlags prints and returns for args, as a
// golden file keeps it.
func parseTranscript(args ...string) string {
	var out, errb bytes.Buffer
	_, code, done := parseFlags(args, &out, &errb)
	return fmt.Sprintf("$ memtablerep_bench %s\ndone %v, exit %d\n--- stdout\n%s--- stderr\n%s\n",
		strings.Join(args, " "), done, code, out.String(), errb.String())
}

// TestFlagErrorsGolden keeps the messages and exit codes of bad command
// lines: unknown flags, values a flag's type cannot take, missing values.
func TestFlagErrorsGolden(t *testing.T) {
	var b strings.Builder
	for _, args := range [][]string{
		{"--num=5"},
		{"--num_threads=two"},
		{"--num_threads=4294967296"},
		{"--bucket_count=1e6"},
		{"--seed=-1", "--item_size=-"},
		{"--reverse=maybe"},
		{"--if_log_bucket_dist_when_flash=no"},
		{"--noreverse=1"},
		{"--num_operations"},
		{"--benchmarks"},
		{"-memtablerep", "skiplist", "--nosuch"},
		{"--vectorrep_count=9223372036854775808"},
		{"--write_buffer_size=0x100"},
	} {
		b.WriteString(parseTranscript(args...))
	}
	checkGolden(t, "flag_errors.txt", b.String())
}

// TestHelpGolden keeps --help and --helpfull: gflags' listing of every
// flag with its type, default and help, under the C++ source file.
func TestHelpGolden(t *testing.T) {
	checkGolden(t, "help.txt", parseTranscript("--help")+parseTranscript("--helpfull"))
}

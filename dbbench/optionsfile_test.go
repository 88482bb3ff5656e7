package dbbench_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestBadOptionsFileContents: a bad --options_file ends the run before any
// engine call with db_bench 7.8.3's line "Unable to load options file F ---
// STATUS" on stderr and exit 1, and leaves no database behind.
func TestBadOptionsFileContents(t *testing.T) {
	cases := []struct{ file, status string }{
		{"value_not_number.ini", "Invalid argument: Error parsing write_buffer_size:stoull"},
		{"unknown_cf_option.ini", "Invalid argument: Could not find option: : write_bufer_size"},
		{"bad_enum_cf.ini", "Invalid argument: Error parsing:: compaction_style"},
		{"unknown_section.ini", "Invalid argument: Unknown section [DBOption]"},
		{"no_cf_section.ini", "Corruption: A RocksDB Option file must have a single CFOptions:default section"},
	}
	for _, c := range cases {
		path, err := filepath.Abs(filepath.Join("..", "options", "testdata", "bad", c.file))
		if err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(t.TempDir(), "db")
		code, out, errs := runMain(t, "--engine=native", "--db="+db, "--seed=1", "--benchmarks=fillseq", "--options_file="+path)
		want := "Unable to load options file " + path + " --- " + c.status + "\n"
		if code != 1 || errs != want {
			t.Errorf("%s: exit %d, stderr %q, want 1, %q", c.file, code, errs, want)
		}
		if out != "Initializing RocksDB Options from the specified file\n" {
			t.Errorf("%s: stdout %q", c.file, out)
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Errorf("%s: the run left %s behind (%v)", c.file, db, err)
		}
	}
}

// TestUnmappedOptionsWarnedOnce: options of an OPTIONS file that RocksDB
// knows but the engine has no setting for are named in one warning, once
// per run (not at each fresh-DB reopen).
func TestUnmappedOptionsWarnedOnce(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "options", "testdata", "per_level_compression.ini"))
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := runMain(t, "--engine=pebble", "--db="+filepath.Join(t.TempDir(), "db"), "--seed=1", "--num=10",
		"--benchmarks=fillseq,fillrandom", "--options_file="+path)
	want := "WARNING: engine pebble ignores 3 options of " + path +
		" that it has no setting for: dump_malloc_stats, index_shortening, pin_top_level_index_and_filter\n"
	if code != 0 || strings.Count(errs, want) != 1 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// TestBadOptionsFileDestroysNothing: a fill benchmark whose --options_file
// is bad leaves the existing database as it was; C++ db_bench deletes the
// database first and then reports the file.
func TestBadOptionsFileDestroysNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	if code, _, errs := runMain(t, "--engine=native", "--db="+db, "--seed=1", "--num=100", "--benchmarks=fillseq"); code != 0 {
		t.Fatalf("fillseq: %s", errs)
	}
	before := dirState(t, db)
	path, err := filepath.Abs(filepath.Join("..", "options", "testdata", "bad", "value_not_number.ini"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--options_file=" + path}, {"--compression_type=xpress"}} {
		code, _, _ := runMain(t, append([]string{"--engine=native", "--db=" + db, "--seed=1", "--num=10", "--benchmarks=fillseq"}, args...)...)
		if code != 1 {
			t.Errorf("%v: exit %d", args, code)
		}
		if after := dirState(t, db); !reflect.DeepEqual(before, after) {
			t.Errorf("%v: the database changed: %v -> %v", args, before, after)
		}
	}
}

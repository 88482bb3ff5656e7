package options

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// applySource parses src and applies it to the defaults.
func applySource(src string) error {
	f, err := ParseOptionsFile(strings.NewReader(src), "mem")
	if err != nil {
		return err
	}
	_, err = f.ApplyStrict(Default())
	return err
}

// loadFile parses and applies an OPTIONS file as db_bench --options_file does.
func loadFile(path string) (*Options, error) {
	o := Default()
	_, err := LoadOptionsFile(path, o)
	return o, err
}

// TestBadOptionsFiles runs every file of testdata/bad through the loader.
// want is the status the loader returns; it is C++ db_bench 7.8.3's message
// after "Unable to load options file F --- " (exit 1) for the same file,
// except where cpp records what C++ does instead: the files named ours_*
// are rejected here and accepted (or crashed on) by C++.
func TestBadOptionsFiles(t *testing.T) {
	cases := []struct{ file, want, cpp string }{
		{"bad_bool.ini", "Invalid argument: Error parsing disable_auto_compactions:", ""},
		{"bad_compression_list.ini", "Invalid argument: Error parsing:: compression_per_level", ""},
		{"bad_double.ini", "Invalid argument: Error parsing max_bytes_for_level_multiplier:stod", ""},
		{"bad_enum_cf.ini", "Invalid argument: Error parsing:: compaction_style", ""},
		{"bad_enum_db.ini", "Invalid argument: No mapping for enum : wal_recovery_mode", ""},
		{"bad_enum_table.ini", "Invalid argument: Error parsing:: checksum", ""},
		{"bad_file_version.ini", "Invalid argument: A valid options_file_version can only contains dots and numbers.", ""},
		{"bad_struct_field.ini", "Invalid argument: Error parsing level:stoi", ""},
		{"empty.ini", "Corruption: A RocksDB Option file must have a single DBOptions section", ""},
		{"file_version_zero.ini", "Invalid argument: A valid options_file_version must be at least 1.", ""},
		{"first_cf_not_default.ini", "Invalid argument: [RocksDBOptionsParser Error] : Default column family must be the first CFOptions section in the option config file (at line 9)", ""},
		{"int_out_of_range.ini", "Invalid argument: Error parsing max_write_buffer_number:stoi", ""},
		{"no_cf_section.ini", "Corruption: A RocksDB Option file must have a single CFOptions:default section", ""},
		{"no_db_section.ini", "Corruption: A RocksDB Option file must have a single DBOptions section", ""},
		{"no_equals.ini", "Invalid argument: [RocksDBOptionsParser Error] : A valid statement must have a '='. (at line 7)", ""},
		{"no_name.ini", "Invalid argument: [RocksDBOptionsParser Error] : A valid statement must have a variable name. (at line 8)", ""},
		{"option_in_wrong_section.ini", "Invalid argument: Could not find option: : write_buffer_size", ""},
		{"ours_bad_filter_policy.ini", "Invalid argument: Error parsing filter_policy: unsupported filter policy \"bogus\"", "C++ exit 0"},
		{"ours_before_section.ini", "Invalid argument: [RocksDBOptionsParser Error] : statement max_background_jobs appears before any section (at line 2)", "C++ exit 0"},
		{"ours_negative_unsigned.ini", "Invalid argument: Error parsing max_bytes_for_level_base:stoull", "C++ exit 0"},
		{"ours_repeated_option.ini", "Invalid argument: [RocksDBOptionsParser Error] : option max_background_jobs appears twice in section [DBOptions] (at line 8)", "C++ exit 0"},
		{"ours_trailing_garbage.ini", "Invalid argument: Error parsing max_write_buffer_number:stoi", "C++ exit 0"},
		{"ours_unknown_table_factory.ini", "Invalid argument: [RocksDBOptionsParser Error] : unknown table factory FooTable (at line 12)", "C++ exit 139"},
		{"removed_option.ini", "Invalid argument: Could not find option: : max_mem_compaction_level", ""},
		{"table_without_cf.ini", "Invalid argument: [RocksDBOptionsParser Error] : Does not find a matched column family name in TableOptions section.  Column Family Name:other (at line 12)", ""},
		{"two_db_sections.ini", "Invalid argument: [RocksDBOptionsParser Error] : More than one DBOption section found in the option config file (at line 8)", ""},
		{"two_version_sections.ini", "Invalid argument: [RocksDBOptionsParser Error] : More than one Version section found in the option config file. (at line 6)", ""},
		{"unknown_cf_option.ini", "Invalid argument: Could not find option: : write_bufer_size", ""},
		{"unknown_db_option.ini", "Invalid argument: Could not find option: : max_background_jobz", ""},
		{"unknown_section.ini", "Invalid argument: Unknown section [DBOption]", ""},
		{"unknown_struct_field.ini", "Invalid argument: Unrecognized option: compression_opts.levle", ""},
		{"unknown_table_option.ini", "Invalid argument: Could not find option: : block_sizee", ""},
		{"value_not_number.ini", "Invalid argument: Error parsing write_buffer_size:stoull", ""},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.file] = true
		_, err := loadFile(filepath.Join("testdata", "bad", c.file))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.file, err, c.want)
		}
		var se *StatusError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %T is not a StatusError", c.file, err)
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "bad", "*.ini"))
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s has no case", f)
		}
	}
}

// TestKnownNamesAccepted: every option RocksDB 7.8.3 writes into an OPTIONS
// file, and the deprecated names it still accepts, load without error.
func TestKnownNamesAccepted(t *testing.T) {
	for _, name := range []string{"OPTIONS-dbbench-default", "OPTIONS-dbbench-tuned", "per_level_compression.ini"} {
		if _, err := loadFile(filepath.Join("testdata", name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	src := "[DBOptions]\n  base_background_compactions=2\n  skip_log_error_on_recovery=true\n" +
		"[CFOptions \"default\"]\n  soft_rate_limit=0\n  purge_redundant_kvs_while_flush=true\n" +
		"  compaction_options_universal={stop_style=kCompactionStopStyleSimilarSize;size_ratio=2;}\n" +
		"  compression_opts=-14:32767:0:0\n" +
		"[TableOptions/BlockBasedTable \"default\"]\n  hash_index_allow_collision=true\n" +
		"  metadata_cache_options={partition_pinning=kAll;}\n" +
		"[CFOptions \"second\"]\n  compression=kZSTD\n" +
		"[TableOptions/PlainTable \"second\"]\n  user_key_len=16\n  encoding_type=kPrefix\n"
	if err := applySource(src); err != nil {
		t.Fatal(err)
	}
}

// TestOptionsFileWrittenByDbBench loads the OPTIONS file C++ db_bench
// writes with default flags, when /usr/bin/db_bench is installed.
func TestOptionsFileWrittenByDbBench(t *testing.T) {
	bin, err := exec.LookPath("db_bench")
	if err != nil {
		t.Skip("C++ db_bench not installed")
	}
	dir := t.TempDir()
	if out, err := exec.Command(bin, "--benchmarks=fillseq", "--num=10", "--db="+dir).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "OPTIONS-*"))
	if len(files) == 0 {
		t.Fatal("db_bench wrote no OPTIONS file")
	}
	for _, f := range files {
		if _, err := loadFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestValueErrors: struct fields, lists and the PlainTable and CuckooTable
// options are checked against their kinds, in RocksDB's words (C++ db_bench
// 7.8.3 gives the same messages).
func TestValueErrors(t *testing.T) {
	cases := []struct{ value, want string }{
		{"compaction_options_fifo={max_table_files_size=abc;}", "Invalid argument: Error parsing max_table_files_size:stoull"},
		{"compaction_options_fifo={allow_compaction=abc;}", "Invalid argument: Error parsing allow_compaction:"},
		{"compaction_options_universal={stop_style=bogus;}", "Invalid argument: Error parsing:: stop_style"},
		{"compaction_options_universal={bogus=1;}", "Invalid argument: Unrecognized option: compaction_options_universal.bogus"},
		{"compaction_options_universal=abc", "Invalid argument: Mismatched key value pair, '=' expected"},
		{"compression_opts={level=3;x}", "Invalid argument: Mismatched key value pair, '=' expected"},
		{"compression_opts=abc", "Invalid argument: Error parsing compression_opts:stoi"},
		{"compression_opts=", "Invalid argument: unable to parse the specified CF option compression_opts"},
		{"max_bytes_for_level_multiplier_additional=1:x", "Invalid argument: Error parsing max_bytes_for_level_multiplier_additional:stoi"},
		{"[TableOptions/PlainTable \"default\"]\n  encoding_type=kBogus", "Invalid argument: Error parsing:: encoding_type"},
		{"[TableOptions/CuckooTable \"default\"]\n  bogus_name=1", "Invalid argument: Could not find option: : bogus_name"},
	}
	for _, c := range cases {
		err := applySource("[DBOptions]\n[CFOptions \"default\"]\n  " + c.value + "\n")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.value, err, c.want)
		}
	}
}

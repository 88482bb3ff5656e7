package options

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func parseFile(t *testing.T, path string) *OptionsFile {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	f, err := ParseOptionsFile(fh, path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestParseRocksDBWrittenFile(t *testing.T) {
	f := parseFile(t, filepath.Join("testdata", "OPTIONS-dbbench-default"))
	var titles []string
	for _, s := range f.Sections {
		titles = append(titles, s.Title+"/"+s.Arg)
	}
	want := []string{"Version/", "DBOptions/", "CFOptions/default", "TableOptions/BlockBasedTable/default"}
	if !reflect.DeepEqual(titles, want) {
		t.Fatalf("sections %v, want %v", titles, want)
	}
	if v, _ := f.FirstSection(SectionVersion).Get("rocksdb_version"); v != "7.8.3" {
		t.Fatalf("rocksdb_version %q", v)
	}
	cf := f.Section(SectionCF, "default")
	if v, ok := cf.Get("compression_opts"); !ok || !strings.HasPrefix(v, "{max_dict_buffer_bytes=0;") {
		t.Fatalf("compression_opts %q %v", v, ok)
	}
	if v, ok := f.FirstSection(SectionDB).Get("listeners"); !ok || v != "{ErrorHandlerListener:ErrorHandlerListener}" {
		t.Fatalf("listeners %q %v", v, ok)
	}
	// Entries keep file order.
	if e := f.FirstSection(SectionDB).Entries[0]; e.Name != "compaction_readahead_size" || e.Line != 12 {
		t.Fatalf("first DB entry %+v", e)
	}
}

func TestApplyDefaultFileChangesLittle(t *testing.T) {
	f := parseFile(t, filepath.Join("testdata", "OPTIONS-dbbench-default"))
	o := Default()
	unknown, err := f.ApplyStrict(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) < 50 {
		t.Fatalf("only %d unknown options; expected RocksDB's long tail", len(unknown))
	}
	if o.Extra["db_host_id"] != "__hostname__" {
		t.Fatalf("db_host_id not kept in Extra: %q", o.Extra["db_host_id"])
	}
	// The file was written by db_bench with default flags: only options that
	// RocksDB sanitizes differently from the flag defaults may change.
	allowed := map[string]bool{"arena_block_size": true, "max_compaction_bytes": true, "checksum": true}
	for name := range o.Explicit {
		if !allowed[name] {
			t.Errorf("option %s marked changed by a default file", name)
		}
	}
	if o.CompressionType != "snappy" || o.Memtablerep != "skip_list" || o.BloomBits != -1 {
		t.Fatalf("compression %q memtablerep %q bloom %d", o.CompressionType, o.Memtablerep, o.BloomBits)
	}
}

func TestApplyTunedFile(t *testing.T) {
	f := parseFile(t, filepath.Join("testdata", "OPTIONS-dbbench-tuned"))
	o := Default()
	if _, err := f.ApplyStrict(o); err != nil {
		t.Fatal(err)
	}
	if o.WriteBufferSize != 1048576 || !o.Explicit["write_buffer_size"] {
		t.Errorf("write_buffer_size %d explicit %v", o.WriteBufferSize, o.Explicit["write_buffer_size"])
	}
	if o.Memtablerep != "vector" || o.AllowConcurrentMemtableWrite {
		t.Errorf("memtablerep %q concurrent %v", o.Memtablerep, o.AllowConcurrentMemtableWrite)
	}
	if o.BloomBits != 10 || !o.CacheIndexAndFilterBlocks || o.PrefixSize != 4 {
		t.Errorf("bloom %d cache_index %v prefix %d", o.BloomBits, o.CacheIndexAndFilterBlocks, o.PrefixSize)
	}
	wantLevels := []string{"none", "none", "snappy", "snappy", "snappy", "snappy", "snappy"}
	if !reflect.DeepEqual(o.CompressionPerLevel, wantLevels) {
		t.Errorf("compression_per_level %v", o.CompressionPerLevel)
	}
	if !reflect.DeepEqual(o.MaxBytesForLevelMultiplierAdditional, []int{1, 1, 1, 1, 1, 1, 2}) {
		t.Errorf("multiplier additional %v", o.MaxBytesForLevelMultiplierAdditional)
	}
	if o.LevelCompression(0) != "none" || o.LevelCompression(2) != "snappy" || o.LevelCompression(9) != "snappy" {
		t.Errorf("LevelCompression wrong")
	}
}

func TestApplyPerLevelIni(t *testing.T) {
	o := Default()
	unknown, err := LoadOptionsFile(filepath.Join("testdata", "per_level_compression.ini"), o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"none", "snappy", "snappy", "snappy", "snappy", "snappy", "zstd"}
	if !reflect.DeepEqual(o.CompressionPerLevel, want) || !o.Explicit["compression_per_level"] {
		t.Fatalf("compression_per_level %v", o.CompressionPerLevel)
	}
	if o.WriteBufferSize != 256<<20 || o.MaxTotalWALSize != 4<<30 || o.MaxBytesForLevelBase != 512<<20 {
		t.Fatalf("sizes %d %d %d", o.WriteBufferSize, o.MaxTotalWALSize, o.MaxBytesForLevelBase)
	}
	if o.DelayedWriteRate != 8388608 || o.Explicit["delayed_write_rate"] {
		t.Fatalf("delayed_write_rate %d explicit %v", o.DelayedWriteRate, o.Explicit["delayed_write_rate"])
	}
	if o.BlockSize != 8192 || o.BloomBits != 10 || o.MaxBackgroundJobs != 4 {
		t.Fatalf("block %d bloom %d jobs %d", o.BlockSize, o.BloomBits, o.MaxBackgroundJobs)
	}
	wantUnknown := []string{"dump_malloc_stats", "index_shortening", "pin_top_level_index_and_filter"}
	if !reflect.DeepEqual(unknown, wantUnknown) {
		t.Fatalf("unknown %v, want %v", unknown, wantUnknown)
	}
	if o.OptionsFile == "" {
		t.Fatal("OptionsFile not recorded")
	}
}

func TestParseSyntax(t *testing.T) {
	src := "  # leading comment\r\n" +
		"[Version]\n" +
		"rocksdb_version = 7.8.3   # trailing comment\n" +
		"options_file_version=1.1\n" +
		"\n" +
		"[DBOptions]\n" +
		"  wal_dir=/tmp/a\\#b\n" +
		"  db_log_dir=\n" +
		"[CFOptions \"default\"]\n" +
		"  compression=kZSTD\n" +
		"[TableOptions/BlockBasedTable \"default\"]\n" +
		"  block_size=16k\n" +
		"[CFOptions \"my cf\"]\n"
	f, err := ParseOptionsFile(strings.NewReader(src), "mem")
	if err != nil {
		t.Fatal(err)
	}
	db := f.FirstSection(SectionDB)
	if v, _ := db.Get("wal_dir"); v != "/tmp/a#b" {
		t.Fatalf("escaped #: %q", v)
	}
	if v, _ := f.FirstSection(SectionVersion).Get("rocksdb_version"); v != "7.8.3" {
		t.Fatalf("trimmed value: %q", v)
	}
	if f.Section(SectionCF, "my cf") == nil {
		t.Fatal("quoted argument with a space lost")
	}
	o := Default()
	if _, err := f.ApplyStrict(o); err != nil {
		t.Fatal(err)
	}
	if o.CompressionType != "zstd" || o.BlockSize != 16384 || o.WALDir != "/tmp/a#b" {
		t.Fatalf("applied %q %d %q", o.CompressionType, o.BlockSize, o.WALDir)
	}
}

func TestParseErrors(t *testing.T) {
	const db, cf = "[DBOptions]\n", "[CFOptions \"default\"]\n"
	cases := []struct{ src, want string }{
		{"max_open_files=1\n" + db + cf, "statement max_open_files appears before any section (at line 1)"},
		{db + "no equals sign\n" + cf, "A valid statement must have a '='. (at line 2)"},
		{db + "=5\n" + cf, "A valid statement must have a variable name. (at line 2)"},
		{db + "a=1\na=2\n" + cf, "option a appears twice in section [DBOptions] (at line 3)"},
		{"[Bogus]\n", "Invalid argument: Unknown section [Bogus]"},
		{db + cf + "[CFOptions]\n", "section [CFOptions] needs a quoted column family name (at line 3)"},
		{"[CFOptions \"default]\n", "unterminated quote"},
		{db + db, "More than one DBOption section found in the option config file (at line 2)"},
		{"[Version]\nrocksdb_version=7.x.3\n" + db + cf, "Invalid argument: A valid rocksdb_version can only contains dots and numbers."},
		{"[Version]\nrocksdb_version=7.8.3.1\n" + db + cf, "Invalid argument: A valid rocksdb_version can only contains at most 2 dots."},
		{"[Version]\nrocksdb_version=7..3\n" + db + cf, "Invalid argument: A valid rocksdb_version must have at least one digit before each dot."},
		{"[Version]\nrocksdb_version=7.8.\n" + db + cf, "Invalid argument: A valid rocksdb_version must have at least one digit after each dot."},
		{"[Version]\nflavour=1\n" + db + cf, "unknown [Version] entry flavour (at line 2)"},
		{"[DBOptions \"x\"]\n", "section [DBOptions] takes no argument (at line 1)"},
		{db + cf + "[TableOptions/BlockBasedTable \"default\"]\n[TableOptions/BlockBasedTable \"default\"]\n", "appears twice (at line 4)"},
		{db + cf + "[CFOptions \"x\"]\n[CFOptions \"x\"]\n", "Two identical column families found in option config file (at line 4)"},
		{cf, "Corruption: A RocksDB Option file must have a single DBOptions section"},
		{db, "Corruption: A RocksDB Option file must have a single CFOptions:default section"},
	}
	for _, c := range cases {
		_, err := ParseOptionsFile(strings.NewReader(c.src), "mem")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
	// What RocksDB accepts in [Version]: fewer parts than the maximum.
	if _, err := ParseOptionsFile(strings.NewReader("[Version]\nrocksdb_version=7.8\noptions_file_version=1\n"+db+cf), "mem"); err != nil {
		t.Error(err)
	}
}

func TestApplyStrictValueErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"[DBOptions]\nmax_background_jobs=many\n", "Invalid argument: Error parsing max_background_jobs:stoi"},
		{"[DBOptions]\n[CFOptions \"default\"]\ncompression=kFancy\n", "Invalid argument: Error parsing:: compression"},
		{"[DBOptions]\n[CFOptions \"default\"]\ncompression_per_level=kZSTD:kNope\n", "Invalid argument: Error parsing:: compression_per_level"},
		{"[DBOptions]\n[CFOptions \"default\"]\ncompression_opts={level=x;}\n", "Invalid argument: Error parsing level:stoi"},
		{"[DBOptions]\n[CFOptions \"default\"]\ncompression_opts={level=1;\n", "struct value must be enclosed in braces"},
		{"[DBOptions]\n[CFOptions \"default\"]\ncompression_opts={level={1;}\n", "unbalanced '{'"},
		{"[DBOptions]\nuse_fsync=yes\n", "Invalid argument: Error parsing use_fsync:"},
		{"[DBOptions]\n[CFOptions \"default\"]\nwrite_buffer_size=99999999999999999999t\n", "Invalid argument: Error parsing write_buffer_size:stoull"},
		{"[DBOptions]\n[CFOptions \"default\"]\nprefix_extractor=rocksdb.CappedPrefix.4\n", "Invalid argument: Error parsing prefix_extractor: unsupported prefix extractor"},
		{"[DBOptions]\n[CFOptions \"default\"]\n[CFOptions \"b\"]\nwrite_bufer_size=1\n", "Invalid argument: Could not find option: : write_bufer_size"},
	}
	for _, c := range cases {
		src := c.src
		if !strings.Contains(src, "CFOptions") {
			src += "[CFOptions \"default\"]\n"
		}
		if err := applySource(src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", src, err, c.want)
		}
	}
}

func TestCompressionOpts(t *testing.T) {
	src := "[DBOptions]\n[CFOptions \"default\"]\ncompression_opts={max_dict_bytes=16384;level=3;enabled=true;}\n"
	f, err := ParseOptionsFile(strings.NewReader(src), "mem")
	if err != nil {
		t.Fatal(err)
	}
	o := Default()
	unknown, err := f.ApplyStrict(o)
	if err != nil || len(unknown) != 0 {
		t.Fatalf("%v %v", unknown, err)
	}
	if o.CompressionLevel != 3 || o.CompressionMaxDictBytes != 16384 || !o.Explicit["compression_level"] {
		t.Fatalf("level %d dict %d", o.CompressionLevel, o.CompressionMaxDictBytes)
	}
}

func TestCompressionNameRoundTrip(t *testing.T) {
	for _, n := range []string{"none", "snappy", "zlib", "bzip2", "lz4", "lz4hc", "xpress", "zstd"} {
		r, err := CompressionToRocksDB(n)
		if err != nil {
			t.Fatal(err)
		}
		back, err := CompressionFromRocksDB(r)
		if err != nil || back != n {
			t.Fatalf("%s -> %s -> %s (%v)", n, r, back, err)
		}
	}
	if _, err := CompressionToRocksDB("brotli"); err == nil {
		t.Fatal("brotli accepted")
	}
}

func FuzzParseOptionsFile(f *testing.F) {
	for _, name := range []string{"OPTIONS-dbbench-default", "OPTIONS-dbbench-tuned", "per_level_compression.ini"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("[DBOptions]\n[CFOptions \"default\"]\ncompression_opts={{;}=};\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ParseOptionsFile(strings.NewReader(string(data)), "fuzz")
		if err != nil {
			return
		}
		_, _ = file.ApplyStrict(Default())
	})
}

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
		"[CFOptions \"my cf\"]\n" +
		"  compression=kZSTD\n" +
		"[TableOptions/BlockBasedTable \"my cf\"]\n" +
		"  block_size=16k\n"
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
	cases := []struct{ src, want string }{
		{"max_open_files=1\n", "mem:1: statement \"max_open_files\" appears before any section"},
		{"[DBOptions]\nno equals sign\n", "mem:2: a statement must have the form name=value"},
		{"[DBOptions]\n=5\n", "mem:2: a statement needs an option name"},
		{"[DBOptions]\na=1\na=2\n", "mem:3: duplicate option \"a\""},
		{"[Bogus]\n", "mem:1: unknown section [Bogus]"},
		{"[CFOptions]\n", "mem:1: section [CFOptions] needs a quoted column family name"},
		{"[CFOptions \"default]\n", "mem:1: unterminated quote"},
		{"[DBOptions]\n[DBOptions]\n", "mem:2: duplicate section"},
		{"[Version]\nrocksdb_version=7.x.3\n", "mem:2: rocksdb_version must be 3 dot-separated integers"},
		{"[Version]\nflavour=1\n", "mem:2: unknown [Version] entry"},
		{"[DBOptions \"x\"]\n", "mem:1: section [DBOptions] takes no argument"},
	}
	for _, c := range cases {
		_, err := ParseOptionsFile(strings.NewReader(c.src), "mem")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

func TestApplyStrictValueErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"[DBOptions]\nmax_background_jobs=many\n", "mem:2: option max_background_jobs: not an integer"},
		{"[CFOptions \"default\"]\ncompression=kFancy\n", "mem:2: option compression: unknown compression type"},
		{"[CFOptions \"default\"]\ncompression_per_level=kZSTD:kNope\n", "unknown compression type \"kNope\""},
		{"[CFOptions \"default\"]\ncompression_opts={level=x;}\n", "field level: not an integer"},
		{"[CFOptions \"default\"]\ncompression_opts={level=1;\n", "struct value must be enclosed in braces"},
		{"[CFOptions \"default\"]\ncompression_opts={level={1;}\n", "unbalanced '{'"},
		{"[DBOptions]\nuse_fsync=yes\n", "not a boolean"},
		{"[CFOptions \"default\"]\nwrite_buffer_size=99999999999999999999t\n", "not an integer"},
	}
	for _, c := range cases {
		f, err := ParseOptionsFile(strings.NewReader(c.src), "mem")
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if _, err := f.ApplyStrict(Default()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
		// Lenient Apply keeps the statement by name instead.
		o := Default()
		if unknown := f.Apply(o); len(unknown) != 1 {
			t.Errorf("%q: lenient unknown %v", c.src, unknown)
		}
	}
}

func TestCompressionOpts(t *testing.T) {
	src := "[CFOptions \"default\"]\ncompression_opts={max_dict_bytes=16384;level=3;nested={a=1;};}\n"
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
	f.Add([]byte("[CFOptions \"a\"]\nx={{;}=};\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ParseOptionsFile(strings.NewReader(string(data)), "fuzz")
		if err != nil {
			return
		}
		o := Default()
		file.Apply(o)
		_, _ = file.ApplyStrict(Default())
	})
}

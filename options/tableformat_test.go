package options

import (
	"strings"
	"testing"
)

// TestTableFactoryInOptionsFile checks that [CFOptions] table_factory sets
// the table format, that an RTable section is accepted (and its unknown
// statements refused), and that a factory RocksDB does not have is refused.
func TestTableFactoryInOptionsFile(t *testing.T) {
	head := "[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n[DBOptions]\n"
	for _, c := range []struct {
		body, format, err string
	}{
		{"[CFOptions \"default\"]\n  table_factory=RTable\n[TableOptions/RTable \"default\"]\n", TableFormatRTable, ""},
		{"[CFOptions \"default\"]\n  table_factory=BlockBasedTable\n[TableOptions/BlockBasedTable \"default\"]\n", TableFormatBlock, ""},
		{"[CFOptions \"default\"]\n  table_factory=PlainTable\n", "PlainTable", ""},
		{"[CFOptions \"default\"]\n  table_factory=FooTable\n", "", "unknown table factory FooTable"},
		{"[CFOptions \"default\"]\n[TableOptions/RTable \"default\"]\n  block_size=4096\n", "", "Could not find option: : block_size"},
	} {
		f, err := ParseOptionsFile(strings.NewReader(head+c.body), "mem")
		if err != nil {
			t.Fatalf("%q: %v", c.body, err)
		}
		o := Default()
		_, err = f.ApplyStrict(o)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one containing %q", c.body, err, c.err)
			}
			continue
		}
		if err != nil || o.TableFormat != c.format {
			t.Errorf("%q: format %q, error %v; want %q", c.body, o.TableFormat, err, c.format)
		}
	}
}

// TestTableFormatFlag checks --table_format's values and the refusal of
// engines that build block-based tables only.
func TestTableFormatFlag(t *testing.T) {
	o := Default()
	if err := ApplyFlag(o, "table_format", "rtable", true); err != nil || o.TableFormat != TableFormatRTable {
		t.Fatalf("rtable: format %q, error %v", o.TableFormat, err)
	}
	if err := CheckBlockTableFormat(o, "pebble"); err == nil || !strings.Contains(err.Error(), "engine pebble") {
		t.Fatalf("pebble with rtable: %v", err)
	}
	if err := ApplyFlag(o, "table_format", "RTable", true); err == nil {
		t.Fatal("--table_format=RTable accepted")
	}
	if err := ApplyFlag(o, "table_format", "block", true); err != nil || CheckBlockTableFormat(o, "pebble") != nil {
		t.Fatalf("block: %v", err)
	}
}

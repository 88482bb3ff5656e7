package archtest

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/godbbench/godbbench/"

// forbidden lists, for packages under a prefix, the prefixes they must not
// import ("name$": that package only, not its sub-packages): arrows point
// from the drivers to the engines to the engine parts, never back.
var forbidden = []struct {
	from string
	not  []string
	why  string
}{
	{"lsm", []string{"dbbench", "engine", "tools", "cmd"}, "the native engine knows nothing of drivers or engine wrappers"},
	{"sst", []string{"lsm", "memtable", "dbbench", "engine", "tools", "cmd"}, "the table format stands alone"},
	{"blob", []string{"lsm", "memtable", "dbbench", "engine", "tools", "cmd"}, "the blob file format stands alone"},
	{"rtable", []string{"lsm", "memtable", "dbbench", "engine", "tools", "cmd"}, "the table format stands alone"},
	{"memtable", []string{"lsm", "sst", "dbbench", "engine", "tools", "cmd"}, "memtables are engine parts"},
	{"options", []string{"dbbench", "engine", "lsm", "sst", "memtable", "tools", "cmd"}, "options are plain data"},
	{"internal", []string{"dbbench", "engine", "lsm", "sst", "memtable", "tools", "cmd"}, "shared helpers depend on nothing of ours"},
	{"engine", []string{"dbbench", "tools", "cmd"}, "engines are driven, they do not drive"},
	{"dbbench", []string{"lsm", "sst", "memtable", "tools", "cmd"}, "the driver reaches engines only through package engine"},
	{"txn", []string{"dbbench", "engine/native", "engine/pebble", "engine/rocksdb", "lsm", "sst", "memtable", "tools", "cmd"}, "transactions sit on the engine contract alone"},
	{"tools", []string{"cmd", "dbbench$"}, "tools read the driver's records (dbbench/jsonrecord), not the driver"},
	{"memtablerepbench", []string{"dbbench", "engine", "lsm", "sst", "tools", "cmd"}, "memtablerep_bench drives memtables only"},
}

// TestArrowsOneWay checks every non-test import of every package in the
// repository against forbidden.
func TestArrowsOneWay(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, build.IgnoreVendor)
		if err != nil {
			return nil // no Go files here
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		checked++
		for _, rule := range forbidden {
			if rel != rule.from && !strings.HasPrefix(rel, rule.from+"/") {
				continue
			}
			for _, imp := range pkg.Imports {
				if !strings.HasPrefix(imp, module) {
					continue
				}
				target := strings.TrimPrefix(imp, module)
				for _, not := range rule.not {
					exact := strings.HasSuffix(not, "$")
					not = strings.TrimSuffix(not, "$")
					if target == not || (!exact && strings.HasPrefix(target, not+"/")) {
						t.Errorf("%s imports %s: %s", rel, target, rule.why)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 30 {
		t.Fatalf("only %d packages found under %s", checked, root)
	}
}

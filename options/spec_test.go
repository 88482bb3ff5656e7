package options

import (
	"reflect"
	"testing"
)

// candidateValues are option value texts, at least one of which changes any
// option from its db_bench default: numbers, booleans, enum names of every
// enum option, and the structured values.
var candidateValues = []string{
	"0", "1", "3", "12345", "true", "false", "-7", "0.25", "/tmp/wal", "vector",
	"kNoCompression", "kZSTD", "kZSTD:kNoCompression", "kCompactionStyleUniversal",
	"kOldestLargestSeqFirst", "kAbsoluteConsistency", "kxxHash", "VectorRepFactory",
	"rocksdb.FixedPrefix.4", "UInt64AddOperator", "bloomfilter:10:false", "bloomfilter:5:false", "2:3:4", "2,3,4,5,6,7,8",
	"rtable", "RTable",
}

// testBase is db_bench's defaults with a bloom filter and a partitioned
// index, which options refining them (use_ribbon_filter,
// metadata_block_size) need to change anything.
func testBase() *Options {
	o := Default()
	o.BloomBits = 10
	o.Extra[table+"index_type"] = "kTwoLevelIndexSearch"
	return o
}

// fieldsChangedBy returns the Options fields that set changes from
// testBase or Default for some candidate value; the fields of an embedded
// struct (RocksDBFeatures) count one by one.
func fieldsChangedBy(set optionSetter) map[string]bool {
	changed := map[string]bool{}
	for _, base := range []func() *Options{testBase, Default} {
		def := optionFields(base())
		for _, v := range candidateValues {
			o := base()
			if _, err := set(o, v); err != nil {
				continue
			}
			for name, got := range optionFields(o) {
				if !reflect.DeepEqual(def[name], got) {
					changed[name] = true
				}
			}
		}
	}
	return changed
}

// optionFields maps the field names of o, those of embedded structs
// included, to their values.
func optionFields(o *Options) map[string]any {
	fields := map[string]any{}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(*o)) {
		if !f.Anonymous {
			fields[f.Name] = reflect.ValueOf(*o).FieldByIndex(f.Index).Interface()
		}
	}
	return fields
}

// TestSpecsCoverEveryField checks the table against the struct: every
// field of Options is set by some spec, and every spec's file setter and
// flag setter each set exactly one field, the same one.
func TestSpecsCoverEveryField(t *testing.T) {
	notOptions := map[string]bool{"Extra": true, "OptionsFile": true, "Explicit": true,
		"KeySize": true} // the driver's --key_size
	covered := map[string]bool{}
	for i := range Specs {
		s := &Specs[i]
		var fileField, flagField map[string]bool
		if s.File != "" {
			fileField = fieldsChangedBy(s.set)
			if len(fileField) != 1 {
				t.Errorf("%s: the file setter changes %v, want one field", s.Key(), fileField)
			}
		}
		if s.Flag != "" {
			set := s.setFlag
			if set == nil {
				set = s.set
			}
			flagField = fieldsChangedBy(set)
			if len(flagField) != 1 {
				t.Errorf("%s: the flag setter changes %v, want one field", s.Key(), flagField)
			}
		}
		if fileField != nil && flagField != nil && !reflect.DeepEqual(fileField, flagField) {
			t.Errorf("%s: the file sets %v but the flag sets %v", s.Key(), fileField, flagField)
		}
		for f := range fileField {
			covered[f] = true
		}
		for f := range flagField {
			covered[f] = true
		}
	}
	for name := range optionFields(Default()) {
		if !covered[name] && !notOptions[name] {
			t.Errorf("Options.%s is set by no spec", name)
		}
	}
}

// TestSpecNamesUnique checks that keys, flags and file names each name one
// spec, and that every spec can be set some way.
func TestSpecNamesUnique(t *testing.T) {
	keys, flags, files := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range Specs {
		s := &Specs[i]
		if s.Flag == "" && s.File == "" {
			t.Errorf("spec %d has neither a flag nor a file name", i)
		}
		if keys[s.Key()] {
			t.Errorf("key %s is used twice", s.Key())
		}
		keys[s.Key()] = true
		if s.Flag != "" {
			if flags[s.Flag] {
				t.Errorf("flag %s is used twice", s.Flag)
			}
			flags[s.Flag] = true
		}
		if s.File != "" {
			id := s.Section + "/" + s.File
			if files[id] {
				t.Errorf("file option %s is used twice", id)
			}
			files[id] = true
		}
		if Lookup(s.Key()) != s {
			t.Errorf("Lookup(%q) does not find its spec", s.Key())
		}
	}
}

// TestApplyFlagMarksKey checks that a flag and the file statement of the
// same option mark the same Explicit name.
func TestApplyFlagMarksKey(t *testing.T) {
	o := Default()
	if err := ApplyFlag(o, "open_files", "100", true); err != nil {
		t.Fatal(err)
	}
	if o.OpenFiles != 100 || !o.Explicit["open_files"] {
		t.Fatalf("--open_files=100: OpenFiles %d, Explicit %v", o.OpenFiles, o.Explicit)
	}
	o = Default()
	if _, err := applyEntry(o, specByFile[SectionDB], OptionsEntry{Name: "max_open_files", Value: "100"}); err != nil {
		t.Fatal(err)
	}
	if o.OpenFiles != 100 || !o.Explicit["open_files"] {
		t.Fatalf("max_open_files=100 in a file: OpenFiles %d, Explicit %v", o.OpenFiles, o.Explicit)
	}
	o = Default()
	if err := ApplyFlag(o, "num_levels", "7", false); err != nil || len(o.Explicit) != 0 {
		t.Fatalf("a default-valued flag not given: err %v, Explicit %v", err, o.Explicit)
	}
	if err := ApplyFlag(o, "num", "7", true); err == nil {
		t.Fatal("--num is not an engine option, ApplyFlag accepted it")
	}
}

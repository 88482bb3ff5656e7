package options

// This file maps the statements of a parsed OPTIONS file onto Options.
//
// db_bench --options_file takes the DB options and the options of the first
// column family (and that family's table options) from the file. Apply does
// the same: [DBOptions], the first [CFOptions "..."] and the
// [TableOptions/BlockBasedTable "..."] with the same column family name.
//
// RocksDB writes every option into the file, defaults included, so Apply
// records an option in Explicit only when the file changes the value Options
// held; an engine then warns only about settings that really differ.

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// compressionNames maps RocksDB's CompressionType enum spellings to the
// db_bench flag spellings used by Options.
var compressionNames = map[string]string{
	"kNoCompression":            "none",
	"kSnappyCompression":        "snappy",
	"kZlibCompression":          "zlib",
	"kBZip2Compression":         "bzip2",
	"kLZ4Compression":           "lz4",
	"kLZ4HCCompression":         "lz4hc",
	"kXpressCompression":        "xpress",
	"kZSTD":                     "zstd",
	"kZSTDNotFinalCompression":  "zstd",
	"kDisableCompressionOption": "none",
}

// CompressionFromRocksDB converts a RocksDB compression enum name
// ("kSnappyCompression") to the db_bench spelling ("snappy").
func CompressionFromRocksDB(name string) (string, error) {
	if c, ok := compressionNames[name]; ok {
		return c, nil
	}
	return "", fmt.Errorf("unknown compression type %q", name)
}

// CompressionToRocksDB converts a db_bench compression name ("zstd") to the
// RocksDB enum spelling ("kZSTD").
func CompressionToRocksDB(name string) (string, error) {
	switch strings.ToLower(name) {
	case "none":
		return "kNoCompression", nil
	case "snappy":
		return "kSnappyCompression", nil
	case "zlib":
		return "kZlibCompression", nil
	case "bzip2":
		return "kBZip2Compression", nil
	case "lz4":
		return "kLZ4Compression", nil
	case "lz4hc":
		return "kLZ4HCCompression", nil
	case "xpress":
		return "kXpressCompression", nil
	case "zstd":
		return "kZSTD", nil
	}
	return "", fmt.Errorf("unknown compression type %q", name)
}

var compactionStyles = map[string]int{
	"kCompactionStyleLevel":     0,
	"kCompactionStyleUniversal": 1,
	"kCompactionStyleFIFO":      2,
	"kCompactionStyleNone":      3,
}

var compactionPris = map[string]int{
	"kByCompensatedSize":      0,
	"kOldestLargestSeqFirst":  1,
	"kOldestSmallestSeqFirst": 2,
	"kMinOverlappingRatio":    3,
	"kRoundRobin":             4,
}

var walRecoveryModes = map[string]int{
	"kTolerateCorruptedTailRecords": WALTolerateCorruptedTailRecords,
	"kAbsoluteConsistency":          WALAbsoluteConsistency,
	"kPointInTimeRecovery":          WALPointInTimeRecovery,
	"kSkipAnyCorruptedRecords":      WALSkipAnyCorruptedRecords,
}

var checksumTypes = map[string]int{
	"kNoChecksum": 0,
	"kCRC32c":     1,
	"kxxHash":     2,
	"kxxHash64":   3,
	"kXXH3":       4,
}

var memtableFactories = map[string]string{
	"SkipListFactory":        "skip_list",
	"VectorRepFactory":       "vector",
	"HashSkipListRepFactory": "prefix_hash",
	"HashLinkListRepFactory": "hash_linkedlist",
}

// optionSetter parses value into o; it reports whether the value changed.
type optionSetter func(o *Options, value string) (changed bool, err error)

// setParsed builds the setter of one field: parse the text, store it, and
// report whether the value changed. Every typed setter below is one of these.
func setParsed[T comparable](parse func(string) (T, error), field func(*Options) *T) optionSetter {
	return func(o *Options, v string) (bool, error) {
		n, err := parse(v)
		if err != nil {
			return false, err
		}
		p := field(o)
		old := *p
		*p = n
		return old != n, nil
	}
}

func setInt64(field func(*Options) *int64) optionSetter { return setParsed(parseOptionInt, field) }

func setUint64(field func(*Options) *uint64) optionSetter { return setParsed(parseOptionUint, field) }

func setBool(field func(*Options) *bool) optionSetter { return setParsed(parseOptionBool, field) }

func setInt(field func(*Options) *int) optionSetter {
	return setParsed(func(v string) (int, error) {
		n, err := parseOptionInt(v)
		if err != nil {
			return 0, err
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return 0, fmt.Errorf("value %s out of range", v)
		}
		return int(n), nil
	}, field)
}

func setFloat(field func(*Options) *float64) optionSetter {
	return setParsed(func(v string) (float64, error) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, fmt.Errorf("not a number: %q", v)
		}
		return f, nil
	}, field)
}

func setEnum(table map[string]int, field func(*Options) *int) optionSetter {
	return setParsed(func(v string) (int, error) {
		n, ok := table[v]
		if !ok {
			return 0, fmt.Errorf("unknown value %q", v)
		}
		return n, nil
	}, field)
}

func setString(field func(*Options) *string) optionSetter {
	return setParsed(func(v string) (string, error) { return v, nil }, field)
}

func setCompression(o *Options, v string) (bool, error) {
	c, err := CompressionFromRocksDB(v)
	if err != nil {
		return false, err
	}
	old := o.CompressionType
	o.CompressionType = c
	return old != c, nil
}

// setCompressionPerLevel parses "kNoCompression:kSnappyCompression:...".
// An empty value clears the list.
func setCompressionPerLevel(o *Options, v string) (bool, error) {
	var levels []string
	if v != "" {
		for _, name := range strings.Split(v, ":") {
			c, err := CompressionFromRocksDB(strings.TrimSpace(name))
			if err != nil {
				return false, err
			}
			levels = append(levels, c)
		}
	}
	changed := !equalStrings(o.CompressionPerLevel, levels)
	o.CompressionPerLevel = levels
	return changed, nil
}

// setMultiplierAdditional parses "1:1:1:1:1:1:1" (RocksDB's own spelling) or
// the db_bench flag spelling "1,1,1".
func setMultiplierAdditional(o *Options, v string) (bool, error) {
	var fan []int
	if v != "" {
		sep := ":"
		if strings.Contains(v, ",") {
			sep = ","
		}
		for _, f := range strings.Split(v, sep) {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return false, fmt.Errorf("not an integer list: %q", v)
			}
			fan = append(fan, n)
		}
	}
	// RocksDB writes a list of 1s for "no extra fanout"; that equals the unset
	// default, so it does not count as a change.
	changed := !equalInts(withoutUnitFanout(o.MaxBytesForLevelMultiplierAdditional), withoutUnitFanout(fan))
	o.MaxBytesForLevelMultiplierAdditional = fan
	return changed, nil
}

// setMemtableFactory accepts "SkipListFactory" and the struct form
// "{id=VectorRepFactory;count=0;}".
func setMemtableFactory(o *Options, v string) (bool, error) {
	id := v
	if strings.HasPrefix(v, "{") {
		fields, err := parseStructValue(v)
		if err != nil {
			return false, err
		}
		id = fields["id"]
	}
	if i := strings.IndexByte(id, ':'); i >= 0 {
		id = id[:i]
	}
	rep, ok := memtableFactories[id]
	if !ok {
		return false, fmt.Errorf("unknown memtable factory %q", v)
	}
	old := o.Memtablerep
	o.Memtablerep = rep
	return old != rep, nil
}

// setPrefixExtractor accepts "nullptr" and "rocksdb.FixedPrefix.N".
func setPrefixExtractor(o *Options, v string) (bool, error) {
	n := 0
	switch {
	case v == "nullptr" || v == "":
	case strings.HasPrefix(v, "rocksdb.FixedPrefix."):
		var err error
		n, err = strconv.Atoi(strings.TrimPrefix(v, "rocksdb.FixedPrefix."))
		if err != nil || n <= 0 {
			return false, fmt.Errorf("bad fixed prefix length in %q", v)
		}
	default:
		return false, fmt.Errorf("unsupported prefix extractor %q", v)
	}
	old := o.PrefixSize
	o.PrefixSize = n
	return old != n, nil
}

// setFilterPolicy accepts "nullptr" (no filter) and
// "bloomfilter:BITS_PER_KEY:USE_BLOCK_BASED" (RocksDB's serialized bloom).
func setFilterPolicy(o *Options, v string) (bool, error) {
	bits := 0
	switch {
	case v == "nullptr" || v == "":
	case strings.HasPrefix(v, "bloomfilter:"):
		parts := strings.Split(v, ":")
		f, err := strconv.ParseFloat(parts[1], 64)
		if err != nil || f < 0 || f > 1000 {
			return false, fmt.Errorf("bad bits per key in %q", v)
		}
		bits = int(math.Round(f))
	default:
		return false, fmt.Errorf("unsupported filter policy %q", v)
	}
	// "nullptr" and the table default (BloomBits < 0) both mean no filter.
	old := o.BloomBits
	if old < 0 && bits == 0 {
		return false, nil
	}
	o.BloomBits = bits
	return old != bits, nil
}

func setNoBlockCache(o *Options, v string) (bool, error) {
	b, err := parseOptionBool(v)
	if err != nil || !b {
		return false, err
	}
	old := o.CacheSize
	o.CacheSize = 0
	return old != 0, nil
}

// ApplyStrict checks every statement of the file's [DBOptions], every
// [CFOptions] and every [TableOptions/...] section against the
// options RocksDB 7.8.3 knows (optionsfile_known.go) and maps the DB
// options, the first column family and its block-based table options onto
// o. A name RocksDB does not know, or a value that does not parse, is an
// "Invalid argument" StatusError in RocksDB's words, and o is then only
// partly set. Options it maps set the field (and Explicit when the value
// changes); every other known statement of those sections goes into o.Extra
// by name and is returned in unmapped, in file order.
func (f *OptionsFile) ApplyStrict(o *Options) (unmapped []string, err error) {
	if o.Extra == nil {
		o.Extra = map[string]string{}
	}
	if o.Explicit == nil {
		o.Explicit = map[string]bool{}
	}
	firstCF := f.FirstSection(SectionCF)
	for _, s := range f.Sections {
		known, settable := sectionNames(s)
		if known == nil {
			continue
		}
		// Only the DB options, the first column family and that family's
		// block-based table options reach o, as with db_bench; the rest
		// are checked.
		apply := settable && (s.Title == SectionDB || (firstCF != nil && s.Arg == firstCF.Arg))
		for _, e := range s.Entries {
			kind, ok := known[e.Name]
			if !ok {
				return unmapped, invalidArgument("Could not find option: : %s", e.Name)
			}
			if err := checkValue(e.Name, kind, e.Value); err != nil {
				return unmapped, invalidArgument("%v", err)
			}
			if !apply {
				continue
			}
			mapped, err := applyEntry(o, specByFile[s.Title], e)
			if err != nil {
				return unmapped, invalidArgument("Error parsing %s: %v", e.Name, err)
			}
			if !mapped {
				o.Extra[e.Name] = e.Value
				unmapped = append(unmapped, e.Name)
			}
		}
	}
	return unmapped, nil
}

// sectionNames returns the known names of a section's statements and
// whether Specs has setters for the section; known is nil for the
// [Version] section, which the parser checks. The PlainTable and
// CuckooTable options are checked and never applied: no engine here builds
// those tables.
func sectionNames(s *OptionsSection) (known map[string]valueKind, settable bool) {
	switch s.Title {
	case SectionDB:
		return knownDBOptions, true
	case SectionCF:
		return knownCFOptions, true
	case tableSection:
		return knownTableOptions, true
	case SectionTablePrefix + "PlainTable":
		return knownPlainTableOptions, false
	case SectionTablePrefix + "CuckooTable":
		return knownCuckooTableOptions, false
	case SectionTablePrefix + rtableFactory:
		return knownRTableOptions, false
	}
	return nil, false
}

// LoadOptionsFile reads the OPTIONS file at path and applies it to o with
// ApplyStrict, as db_bench --options_file does; it also sets o.OptionsFile.
// Errors other than the file's own are the os package's.
func LoadOptionsFile(path string, o *Options) (unmapped []string, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := ParseOptionsFile(fh, path)
	if err != nil {
		return nil, err
	}
	o.OptionsFile = path
	return f.ApplyStrict(o)
}

// applyEntry sets one statement from the section's specs (by file name);
// it reports whether the name was mapped. A struct value ({k=v;...}) is
// mapped field by field through the specs named "name.field".
func applyEntry(o *Options, specs map[string]*Spec, e OptionsEntry) (bool, error) {
	if s, ok := specs[e.Name]; ok {
		changed, err := s.set(o, e.Value)
		if err != nil {
			return true, err
		}
		if changed {
			o.Explicit[s.Key()] = true
		}
		return true, nil
	}
	if !strings.HasPrefix(e.Value, "{") || !structOptionNames[e.Name] {
		return false, nil
	}
	fields, err := parseStructValue(e.Value)
	if err != nil {
		return false, err
	}
	mapped := false
	for _, k := range sortedKeys(fields) {
		s, ok := specs[e.Name+"."+k]
		if !ok {
			continue
		}
		mapped = true
		changed, err := s.set(o, fields[k])
		if err != nil {
			return true, fmt.Errorf("field %s: %v", k, err)
		}
		if changed {
			o.Explicit[s.Key()] = true
		}
	}
	return mapped, nil
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// parseStructValue splits "{a=1;b={c=2;};}" into its top-level fields.
func parseStructValue(v string) (map[string]string, error) {
	if len(v) < 2 || v[0] != '{' || v[len(v)-1] != '}' {
		return nil, fmt.Errorf("struct value must be enclosed in braces: %q", v)
	}
	body := v[1 : len(v)-1]
	out := map[string]string{}
	for len(body) > 0 {
		eq := strings.IndexByte(body, '=')
		if eq < 0 {
			if strings.TrimSpace(body) == "" {
				break
			}
			return nil, fmt.Errorf("Mismatched key value pair, '=' expected")
		}
		name := strings.TrimSpace(body[:eq])
		rest := body[eq+1:]
		end, err := structFieldEnd(rest)
		if err != nil {
			return nil, fmt.Errorf("%v in %q", err, v)
		}
		out[name] = strings.TrimSpace(rest[:end])
		body = rest[end:]
		if len(body) > 0 {
			body = body[1:] // the ';'
		}
	}
	return out, nil
}

// structFieldEnd returns the index of the ';' ending a field value (or the
// end of s), skipping over nested braces.
func structFieldEnd(s string) (int, error) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return 0, fmt.Errorf("unbalanced '}'")
			}
		case ';':
			if depth == 0 {
				return i, nil
			}
		}
	}
	if depth != 0 {
		return 0, fmt.Errorf("unbalanced '{'")
	}
	return len(s), nil
}

// parseOptionInt parses a signed integer with RocksDB's optional k/m/g/t
// (binary) suffix.
func parseOptionInt(v string) (int64, error) {
	neg := strings.HasPrefix(v, "-")
	u, err := parseOptionUint(strings.TrimPrefix(v, "-"))
	if err != nil || u > math.MaxInt64 {
		return 0, fmt.Errorf("not an integer: %q", v)
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}

// parseOptionUint parses an unsigned integer with RocksDB's optional k/m/g/t
// (binary) suffix, e.g. "64m" = 67108864.
func parseOptionUint(v string) (uint64, error) {
	shift := 0
	if n := len(v); n > 1 {
		switch v[n-1] {
		case 'k', 'K':
			shift = 10
		case 'm', 'M':
			shift = 20
		case 'g', 'G':
			shift = 30
		case 't', 'T':
			shift = 40
		}
		if shift > 0 {
			v = v[:n-1]
		}
	}
	u, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not an unsigned integer: %q", v)
	}
	if shift > 0 && u > math.MaxUint64>>shift {
		return 0, fmt.Errorf("value %q overflows 64 bits", v)
	}
	return u << shift, nil
}

func parseOptionBool(v string) (bool, error) {
	switch v {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("not a boolean: %q", v)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// withoutUnitFanout returns nil for a list of only 1s (no extra fanout).
func withoutUnitFanout(a []int) []int {
	for _, n := range a {
		if n != 1 {
			return a
		}
	}
	return nil
}

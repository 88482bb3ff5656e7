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

// dbOptionSetters maps [DBOptions] names onto Options.
var dbOptionSetters = map[string]optionSetter{
	"max_background_jobs":                    setInt(func(o *Options) *int { return &o.MaxBackgroundJobs }),
	"max_background_compactions":             setInt(func(o *Options) *int { return &o.MaxBackgroundCompactions }),
	"max_background_flushes":                 setInt(func(o *Options) *int { return &o.MaxBackgroundFlushes }),
	"max_subcompactions":                     setUint64(func(o *Options) *uint64 { return &o.Subcompactions }),
	"delayed_write_rate":                     setUint64(func(o *Options) *uint64 { return &o.DelayedWriteRate }),
	"max_open_files":                         setInt(func(o *Options) *int { return &o.OpenFiles }),
	"bytes_per_sync":                         setUint64(func(o *Options) *uint64 { return &o.BytesPerSync }),
	"wal_bytes_per_sync":                     setUint64(func(o *Options) *uint64 { return &o.WALBytesPerSync }),
	"max_total_wal_size":                     setUint64(func(o *Options) *uint64 { return &o.MaxTotalWALSize }),
	"compaction_readahead_size":              setInt(func(o *Options) *int { return &o.CompactionReadaheadSize }),
	"use_direct_reads":                       setBool(func(o *Options) *bool { return &o.UseDirectReads }),
	"use_direct_io_for_flush_and_compaction": setBool(func(o *Options) *bool { return &o.UseDirectIOForFlushAndCompaction }),
	"allow_mmap_reads":                       setBool(func(o *Options) *bool { return &o.MmapRead }),
	"allow_mmap_writes":                      setBool(func(o *Options) *bool { return &o.MmapWrite }),
	"use_fsync":                              setBool(func(o *Options) *bool { return &o.UseFsync }),
	"wal_dir":                                setString(func(o *Options) *string { return &o.WALDir }),
	"paranoid_checks":                        setBool(func(o *Options) *bool { return &o.ParanoidChecks }),
	"wal_recovery_mode":                      setEnum(walRecoveryModes, func(o *Options) *int { return &o.WALRecoveryMode }),
	"advise_random_on_open":                  setBool(func(o *Options) *bool { return &o.AdviseRandomOnOpen }),
	"table_cache_numshardbits":               setInt(func(o *Options) *int { return &o.TableCacheNumShardBits }),
	"db_write_buffer_size":                   setInt64(func(o *Options) *int64 { return &o.DBWriteBufferSize }),
	"allow_concurrent_memtable_write":        setBool(func(o *Options) *bool { return &o.AllowConcurrentMemtableWrite }),
	"enable_pipelined_write":                 setBool(func(o *Options) *bool { return &o.EnablePipelinedWrite }),
}

// cfOptionSetters maps [CFOptions] names onto Options.
var cfOptionSetters = map[string]optionSetter{
	"write_buffer_size":                         setInt64(func(o *Options) *int64 { return &o.WriteBufferSize }),
	"max_write_buffer_number":                   setInt(func(o *Options) *int { return &o.MaxWriteBufferNumber }),
	"min_write_buffer_number_to_merge":          setInt(func(o *Options) *int { return &o.MinWriteBufferNumberToMerge }),
	"arena_block_size":                          setInt64(func(o *Options) *int64 { return &o.ArenaBlockSize }),
	"memtable_prefix_bloom_size_ratio":          setFloat(func(o *Options) *float64 { return &o.MemtableBloomSizeRatio }),
	"num_levels":                                setInt(func(o *Options) *int { return &o.NumLevels }),
	"level0_file_num_compaction_trigger":        setInt(func(o *Options) *int { return &o.Level0FileNumCompactionTrigger }),
	"level0_slowdown_writes_trigger":            setInt(func(o *Options) *int { return &o.Level0SlowdownWritesTrigger }),
	"level0_stop_writes_trigger":                setInt(func(o *Options) *int { return &o.Level0StopWritesTrigger }),
	"target_file_size_base":                     setInt64(func(o *Options) *int64 { return &o.TargetFileSizeBase }),
	"target_file_size_multiplier":               setInt(func(o *Options) *int { return &o.TargetFileSizeMultiplier }),
	"max_bytes_for_level_base":                  setUint64(func(o *Options) *uint64 { return &o.MaxBytesForLevelBase }),
	"max_bytes_for_level_multiplier":            setFloat(func(o *Options) *float64 { return &o.MaxBytesForLevelMultiplier }),
	"max_bytes_for_level_multiplier_additional": setMultiplierAdditional,
	"level_compaction_dynamic_level_bytes":      setBool(func(o *Options) *bool { return &o.LevelCompactionDynamicLevelBytes }),
	"compaction_style":                          setEnum(compactionStyles, func(o *Options) *int { return &o.CompactionStyle }),
	"compaction_pri":                            setEnum(compactionPris, func(o *Options) *int { return &o.CompactionPri }),
	"disable_auto_compactions":                  setBool(func(o *Options) *bool { return &o.DisableAutoCompactions }),
	"max_compaction_bytes":                      setUint64(func(o *Options) *uint64 { return &o.MaxCompactionBytes }),
	"soft_pending_compaction_bytes_limit":       setUint64(func(o *Options) *uint64 { return &o.SoftPendingCompactionBytesLimit }),
	"hard_pending_compaction_bytes_limit":       setUint64(func(o *Options) *uint64 { return &o.HardPendingCompactionBytesLimit }),
	"optimize_filters_for_hits":                 setBool(func(o *Options) *bool { return &o.OptimizeFiltersForHits }),
	"compression":                               setCompression,
	"compression_per_level":                     setCompressionPerLevel,
	"memtable_factory":                          setMemtableFactory,
	"prefix_extractor":                          setPrefixExtractor,
}

// tableOptionSetters maps [TableOptions/BlockBasedTable] names onto Options.
var tableOptionSetters = map[string]optionSetter{
	"block_size":                              setInt(func(o *Options) *int { return &o.BlockSize }),
	"block_restart_interval":                  setInt(func(o *Options) *int { return &o.BlockRestartInterval }),
	"index_block_restart_interval":            setInt(func(o *Options) *int { return &o.IndexBlockRestartInterval }),
	"whole_key_filtering":                     setBool(func(o *Options) *bool { return &o.WholeKeyFiltering }),
	"format_version":                          setInt(func(o *Options) *int { return &o.FormatVersion }),
	"cache_index_and_filter_blocks":           setBool(func(o *Options) *bool { return &o.CacheIndexAndFilterBlocks }),
	"pin_l0_filter_and_index_blocks_in_cache": setBool(func(o *Options) *bool { return &o.PinL0FilterAndIndexBlocksInCache }),
	"checksum":                                setEnum(checksumTypes, func(o *Options) *int { return &o.ChecksumType }),
	"filter_policy":                           setFilterPolicy,
	"no_block_cache":                          setNoBlockCache,
}

// structOptions maps a field of a nested struct value (name={k=v;...}) onto
// Options: "compression_opts.level" -> compression_level.
var structOptions = map[string]struct {
	name string
	set  optionSetter
}{
	"compression_opts.level":          {"compression_level", setInt(func(o *Options) *int { return &o.CompressionLevel })},
	"compression_opts.max_dict_bytes": {"compression_max_dict_bytes", setInt(func(o *Options) *int { return &o.CompressionMaxDictBytes })},
}

// structOptionNames holds the names whose struct values structOptions reads.
var structOptionNames = map[string]bool{"compression_opts": true}

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
		known, setters := sectionNames(s)
		if known == nil {
			continue
		}
		// Only the DB options, the first column family and that family's
		// block-based table options reach o, as with db_bench; the rest
		// are checked.
		apply := setters != nil && (s.Title == SectionDB || (firstCF != nil && s.Arg == firstCF.Arg))
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
			mapped, err := applyEntry(o, setters, e)
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

// sectionNames returns the known names and the setters of a section's
// statements, or nils for the [Version] section, which the parser checks.
// The PlainTable and CuckooTable options are checked and never applied:
// no engine here builds those tables.
func sectionNames(s *OptionsSection) (map[string]valueKind, map[string]optionSetter) {
	switch s.Title {
	case SectionDB:
		return knownDBOptions, dbOptionSetters
	case SectionCF:
		return knownCFOptions, cfOptionSetters
	case SectionTablePrefix + "BlockBasedTable":
		return knownTableOptions, tableOptionSetters
	case SectionTablePrefix + "PlainTable":
		return knownPlainTableOptions, nil
	case SectionTablePrefix + "CuckooTable":
		return knownCuckooTableOptions, nil
	}
	return nil, nil
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

// applyEntry sets one statement; it reports whether the name was mapped.
func applyEntry(o *Options, setters map[string]optionSetter, e OptionsEntry) (bool, error) {
	if set, ok := setters[e.Name]; ok {
		changed, err := set(o, e.Value)
		if err != nil {
			return true, err
		}
		if changed {
			o.Explicit[e.Name] = true
		}
		return true, nil
	}
	if !structOptionNames[e.Name] || !strings.HasPrefix(e.Value, "{") {
		return false, nil
	}
	known := false
	fields, err := parseStructValue(e.Value)
	if err != nil {
		return false, err
	}
	for _, k := range sortedKeys(fields) {
		so, ok := structOptions[e.Name+"."+k]
		if !ok {
			continue
		}
		known = true
		changed, err := so.set(o, fields[k])
		if err != nil {
			return true, fmt.Errorf("field %s: %v", k, err)
		}
		if changed {
			o.Explicit[so.name] = true
		}
	}
	return known, nil
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

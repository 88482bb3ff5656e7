package memtablerepbench

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/internal/gflags"
	"github.com/godbbench/godbbench/memtable"
)

// flagDef is one row of memtablerep_bench's flag table. The row names a
// field of Flags (the flag's name with each word capitalised, whose Go
// type gives the flag's gflags type) and says everything else about the
// flag: newFlagSet registers the table, and FlagTable renders it for the
// flag document (docs/MEMTABLEREP_FLAGS.md).
type flagDef struct {
	name string
	def  string // the default in gflags' text form ("true", "256", "skiplist")
	help string
	// listsReps appends the rep names registered in this binary to help.
	listsReps bool
	origin    string // whose tool defines the flag
	use       string // what this implementation does with the value
}

// Who defines a flag.
const (
	fromRocksDB   = "RocksDB 7.8.3"
	fromToplingDB = "ToplingDB"
)

// What this implementation does with a flag.
const (
	useApplied   = "applied"
	useNoEffect  = "accepted, no effect: "
	useHashLists = useNoEffect + "memtable/hashrep keeps no bucket statistics and logs nothing"
)

// flagTable holds memtablerep_bench's flags: RocksDB 7.8.3's
// (memtable/memtablerep_bench.cc), in the order the C++ tool defines
// them, with their names, types and defaults, then ToplingDB's three
// additions.
var flagTable = []flagDef{
	{name: "benchmarks", def: "fillrandom", origin: fromRocksDB, use: useApplied,
		help: "Comma-separated benchmarks: fillrandom, fillseq, readrandom, readseq, readwrite, seqreadwrite"},
	{name: "memtablerep", def: "skiplist", origin: fromRocksDB, use: useApplied, listsReps: true,
		help: "Memtable implementation: skiplist, hashlinklist, hashskiplist, vector (the C++ tool's names), or a registered name"},
	{name: "bucket_count", def: "1000000", origin: fromRocksDB, use: useApplied,
		help: "Buckets of the hash memtables"},
	{name: "hashskiplist_height", def: "4", origin: fromRocksDB, use: useApplied,
		help: "Skip list height inside each hash skip list bucket"},
	{name: "hashskiplist_branching_factor", def: "4", origin: fromRocksDB, use: useApplied,
		help: "Skip list branching factor inside each hash skip list bucket"},
	{name: "huge_page_tlb_size", def: "0", origin: fromRocksDB, use: useNoEffect + "the arena is Go memory",
		help: "Huge page size for the hash linked list arena; 0 disables huge pages"},
	{name: "bucket_entries_logging_threshold", def: "4096", origin: fromRocksDB, use: useHashLists,
		help: "Hash linked list: log buckets holding more entries than this"},
	{name: "if_log_bucket_dist_when_flash", def: "true", origin: fromRocksDB, use: useHashLists,
		help: "Hash linked list: log the bucket size distribution at flush"},
	{name: "threshold_use_skiplist", def: "256", origin: fromRocksDB, use: useApplied,
		help: "Hash linked list: bucket entries before a bucket becomes a skip list"},
	{name: "write_buffer_size", def: "256", origin: fromRocksDB, use: useNoEffect + "as in the C++ tool, no benchmark reads it",
		help: "Size given to the write buffer manager (not used by the benchmarks)"},
	{name: "num_threads", def: "1", origin: fromRocksDB, use: useApplied,
		help: "Concurrent threads; in mixed benchmarks one of them writes"},
	{name: "num_operations", def: "1000000", origin: fromRocksDB, use: useApplied,
		help: "Operations of the write and random read benchmarks"},
	{name: "num_scans", def: "10", origin: fromRocksDB, use: useApplied,
		help: "Full scans per thread in the sequential read benchmarks"},
	{name: "item_size", def: "100", origin: fromRocksDB, use: useApplied,
		help: "Value bytes per entry"},
	{name: "prefix_length", def: "8", origin: fromRocksDB, use: useApplied,
		help: "Fixed prefix length given to the hash memtables"},
	{name: "vectorrep_count", def: "0", origin: fromRocksDB, use: useApplied,
		help: "Entries reserved up front by the vector memtable"},
	{name: "seed", def: "0", origin: fromRocksDB, use: useApplied,
		help: "Seed of the random generators; 0 is a fixed seed, not the clock"},
	{name: "enable_zero_copy", def: "false", origin: fromToplingDB, use: useNoEffect + "every rep here reads without copying",
		help: "read without copying (ToplingDB); always the case here"},
	{name: "reverse", def: "false", origin: fromToplingDB, use: useApplied,
		help: "readseq scans in reverse order (ToplingDB)"},
	{name: "use_concurrent_insert", def: "false", origin: fromToplingDB, use: useNoEffect + "every rep here takes concurrent inserts",
		help: "use the concurrent insert path (ToplingDB); always the case here"},
}

// fieldName is the Flags field of the flag called name: each word
// capitalised ("num_threads": NumThreads).
func fieldName(name string) string {
	words := strings.Split(name, "_")
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, "")
}

// register defines the flag of row d on fs, writing into its field of f.
// A row the table cannot satisfy (no such field, a default its type
// cannot take) is a mistake in the table, and panics; the package's
// tests register every row.
func (d *flagDef) register(fs *gflags.FlagSet, f *Flags) {
	field := reflect.ValueOf(f).Elem().FieldByName(fieldName(d.name))
	if !field.IsValid() {
		panic(fmt.Sprintf("memtablerepbench: flag %s has no field %s in Flags", d.name, fieldName(d.name)))
	}
	help := d.help
	if d.listsReps {
		help += ": " + strings.Join(memtable.Names(), ", ")
	}
	var err error
	switch p := field.Addr().Interface().(type) {
	case *string:
		fs.StringVar(p, d.name, d.def, help)
	case *bool:
		var v bool
		v, err = strconv.ParseBool(d.def)
		fs.BoolVar(p, d.name, v, help)
	case *int32:
		var v int64
		v, err = strconv.ParseInt(d.def, 10, 32)
		fs.Int32Var(p, d.name, int32(v), help)
	case *int64:
		var v int64
		v, err = strconv.ParseInt(d.def, 10, 64)
		fs.Int64Var(p, d.name, v, help)
	default:
		err = fmt.Errorf("field of type %s", field.Type())
	}
	if err != nil {
		panic(fmt.Sprintf("memtablerepbench: flag %s: %v", d.name, err))
	}
}

// FlagRow describes one flag for the flag document.
type FlagRow struct {
	Name, Type, Default, Help string
	Origin                    string // whose tool defines the flag
	Use                       string // what this implementation does with it
}

// FlagTable lists memtablerep_bench's flags in name order as --help
// shows them (--memtablerep's help naming the reps linked into this
// binary), with where each comes from and what is done with it.
func FlagTable() []FlagRow {
	fs, _ := newFlagSet("memtablerep_bench")
	byName := map[string]*flagDef{}
	for i := range flagTable {
		byName[flagTable[i].name] = &flagTable[i]
	}
	var rows []FlagRow
	fs.VisitAll(func(f *gflags.Flag) {
		d, ok := byName[f.Name]
		if !ok {
			return // gflags' own flags
		}
		rows = append(rows, FlagRow{Name: f.Name, Type: f.Type.String(), Default: f.Default, Help: f.Help,
			Origin: d.origin, Use: d.use})
	})
	return rows
}

package memtable

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Config carries the parameters of a --memtablerep spelling to a Factory.
// Zero values mean "the implementation's default".
type Config struct {
	// MemCap is the arena capacity in bytes (ToplingDB's mem_cap).
	MemCap uint64
	// UseHugepage asks for huge pages where the implementation can use them.
	UseHugepage bool
	// Param is the N of "name:N" (or the JSON parameter "lookahead"):
	// SkipListFactory's lookahead (implementations may ignore it),
	// VectorRepFactory's reserved entry count, the hash factories' bucket
	// count.
	Param int
	// PrefixSize is the length of the fixed prefix extractor
	// (--prefix_size), set by an engine that has one; the hash reps bucket
	// keys by it. 0 means no extractor.
	PrefixSize int
	// SkipListHeight and SkipListBranching shape the skiplist of each
	// prefix_hash bucket (memtablerep_bench's --hashskiplist_height and
	// --hashskiplist_branching_factor); 0 means the factory's default.
	SkipListHeight    int
	SkipListBranching int
	// ListEntries is hash_linkedlist's threshold_use_skiplist: a bucket of
	// more entries grows skiplist links; 0 means the factory's default.
	ListEntries int
	// WriteBufferSize is set by an engine that knows it, so a rep can size
	// its arena (ToplingDB's ChooseMemCap); 0 when unknown.
	WriteBufferSize uint64
	// Params holds every JSON parameter as given (numbers and booleans in
	// their JSON text, strings unquoted), for implementation-specific options.
	Params map[string]string
}

// Factory builds one empty Rep. It is called once per memtable.
type Factory func(cfg Config) (Rep, error)

var registry struct {
	sync.RWMutex
	byName map[string]Factory
}

// Register makes f available under every name in names. Implementations
// call it from an init function; registering a name twice panics, since that
// is a programming error found at start-up.
func Register(names []string, f Factory) {
	registry.Lock()
	defer registry.Unlock()
	if registry.byName == nil {
		registry.byName = make(map[string]Factory)
	}
	for _, n := range names {
		if _, dup := registry.byName[n]; dup {
			panic("memtable: Register called twice for " + n)
		}
		registry.byName[n] = f
	}
}

// Names lists the registered names, sorted.
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	names := make([]string, 0, len(registry.byName))
	for n := range registry.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup parses a --memtablerep spelling and returns its factory and the
// Config it describes. Accepted forms:
//
//	skiplist | skip_list | SkipListFactory      a registered name
//	skip_list:16 | vector:1000 | prefix_hash:64  name with a parameter (Param)
//	cspp:{"mem_cap":"4G","use_hugepage":true}    ToplingDB's Name:{json}
//
// Sizes in JSON accept a number of bytes or a string with a K, M, G or T
// suffix (powers of 1024, optionally followed by B or iB). Errors use
// RocksDB's wording, e.g. "Not implemented: Could not load
// MemTableRepFactory: foo".
func Lookup(spec string) (Factory, Config, error) {
	var cfg Config
	name, arg, hasArg := strings.Cut(spec, ":")
	if name == "cuckoo" {
		return nil, cfg, fmt.Errorf("Invalid argument: cuckoo hash memtable is not supported anymore.: %s", spec)
	}
	registry.RLock()
	f := registry.byName[name]
	registry.RUnlock()
	if f == nil {
		return nil, cfg, fmt.Errorf("Not implemented: Could not load MemTableRepFactory: %s", name)
	}
	if hasArg {
		if err := parseArg(name, arg, &cfg); err != nil {
			return nil, cfg, err
		}
	}
	return f, cfg, nil
}

// New builds a Rep from a --memtablerep spelling (see Lookup).
func New(spec string) (Rep, error) {
	f, cfg, err := Lookup(spec)
	if err != nil {
		return nil, err
	}
	return f(cfg)
}

// parseArg decodes the part after "name:": a JSON object or a number (Param).
func parseArg(name, arg string, cfg *Config) error {
	arg = strings.TrimSpace(arg)
	if !strings.HasPrefix(arg, "{") {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 {
			return fmt.Errorf("Invalid argument: %s: bad lookahead %q", name, arg)
		}
		cfg.Param = n
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(arg), &raw); err != nil {
		return fmt.Errorf("Invalid argument: %s: bad JSON parameters: %v", name, err)
	}
	cfg.Params = make(map[string]string, len(raw))
	for k, v := range raw {
		s := string(v)
		var str string
		if json.Unmarshal(v, &str) == nil {
			s = str
		}
		cfg.Params[k] = s
		var err error
		switch k {
		case "mem_cap":
			cfg.MemCap, err = ParseSize(s)
		case "use_hugepage":
			cfg.UseHugepage, err = strconv.ParseBool(s)
		case "lookahead":
			cfg.Param, err = strconv.Atoi(s)
		}
		if err != nil {
			return fmt.Errorf("Invalid argument: %s: parameter %s=%q: %v", name, k, s, err)
		}
	}
	return nil
}

// ParseSize parses a byte count such as "4096", "64K", "512MiB" or "4G"
// (suffixes are powers of 1024, case-insensitive).
func ParseSize(s string) (uint64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(t, "IB")
	t = strings.TrimSuffix(t, "B")
	shift := 0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			shift = 10
		case 'M':
			shift = 20
		case 'G':
			shift = 30
		case 'T':
			shift = 40
		}
		if shift != 0 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseUint(strings.TrimSpace(t), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad size %q", s)
	}
	if shift != 0 && v > (^uint64(0))>>shift {
		return 0, fmt.Errorf("size %q overflows", s)
	}
	return v << shift, nil
}

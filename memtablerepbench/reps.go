package memtablerepbench

import "github.com/godbbench/godbbench/memtable"

// benchRepNames maps memtablerep_bench's own --memtablerep names (which
// the flag's help lists, flagtable.go) to the registered reps they build; any other name is looked up as a registered
// rep spelling (memtable.Lookup), such as "cspp:{...}".
var benchRepNames = map[string]string{
	"vector":       "vector",
	"hashskiplist": "prefix_hash",
	"hashlinklist": "hash_linkedlist",
}

// lookupRep resolves --memtablerep as the C++ tool does: "vector" reserves
// --vectorrep_count entries; "hashskiplist" and "hashlinklist" get
// --bucket_count buckets and a fixed prefix extractor of --prefix_length
// bytes, and hashskiplist's skiplists --hashskiplist_height and
// --hashskiplist_branching_factor, hashlinklist's --threshold_use_skiplist.
// (hashlinklist's --huge_page_tlb_size and bucket logging flags are
// accepted and unused: memtable/hashrep logs nothing.)
func lookupRep(f *Flags) (memtable.Factory, memtable.Config, error) {
	name, ok := benchRepNames[f.Memtablerep]
	if !ok {
		return memtable.Lookup(f.Memtablerep)
	}
	factory, cfg, err := memtable.Lookup(name)
	if err != nil {
		return nil, cfg, err
	}
	switch f.Memtablerep {
	case "vector":
		cfg.Param = int(f.VectorrepCount)
	case "hashskiplist":
		cfg.PrefixSize, cfg.Param = int(f.PrefixLength), int(f.BucketCount)
		cfg.SkipListHeight, cfg.SkipListBranching = int(f.HashskiplistHeight), int(f.HashskiplistBranchingFactor)
	case "hashlinklist":
		cfg.PrefixSize, cfg.Param = int(f.PrefixLength), int(f.BucketCount)
		cfg.ListEntries = int(f.ThresholdUseSkiplist)
	}
	return factory, cfg, nil
}

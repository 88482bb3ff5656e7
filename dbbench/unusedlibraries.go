package dbbench

import (
	"slices"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/codepages"
)

// releaseUnusedLibraries gives back the resident pages of the shared
// libraries that engines other than the one this run uses are built on
// (engine.Info.SharedLibraries): a binary built with the rocksdb engine
// loads librocksdb and the C++ libraries under it for every run, and their
// static initializers leave 7-8 MB of their code resident, which a native
// or pebble run would otherwise carry in its peak RSS without ever calling
// it. Nothing is lost: a page touched again comes back from the page cache
// (internal/codepages). A failure to read the process's maps releases
// nothing and changes nothing else, so it is not reported.
func releaseUnusedLibraries(using string) codepages.Released {
	var unused, needed []string
	for _, name := range engine.Names() {
		op, err := engine.Lookup(name)
		if err != nil {
			continue
		}
		libs := op.Info().SharedLibraries
		if name == using {
			needed = append(needed, libs...)
		} else {
			unused = append(unused, libs...)
		}
	}
	unused = slices.DeleteFunc(unused, func(lib string) bool { return slices.Contains(needed, lib) })
	if len(unused) == 0 {
		return codepages.Released{}
	}
	released, _ := codepages.Release(unused...)
	return released
}

package dbbench

import (
	"fmt"
	"io"
	"sort"

	"github.com/godbbench/godbbench/internal/gflags"
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// warnIgnoredFlags reports, once, each flag set away from its default
// that has no effect here (noeffect.go), so nothing is silently ignored;
// a flag given its default value changes nothing and is not reported.
func warnIgnoredFlags(w io.Writer, fs *gflags.FlagSet) {
	var names []string
	fs.Visit(func(name, _ string) {
		if hasNoEffect(fs, name) && fs.Lookup(name).IsChanged() {
			names = append(names, name)
		}
	})
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "WARNING: --%s is accepted for compatibility but has no effect here\n", n)
	}
}

// hasNoEffect reports whether the flag changes nothing on any engine.
func hasNoEffect(fs *gflags.FlagSet, name string) bool {
	if noEffectFlags[name] {
		return true
	}
	f := fs.Lookup(name)
	return f != nil && toolFlagFiles[f.File]
}

package dbbench

import (
	"errors"
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
		if hasNoEffect(fs, name) && refusedFlags[name] == "" && fs.Lookup(name).IsChanged() {
			names = append(names, name)
		}
	})
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "WARNING: --%s is accepted for compatibility but has no effect here\n", n)
	}
}

// refuseFlags returns the error that stops a run where a refused flag
// (refusedFlags) is set away from its default, naming the first one.
func refuseFlags(fs *gflags.FlagSet) error {
	var names []string
	for n := range refusedFlags {
		if f := fs.Lookup(n); f != nil && f.IsChanged() {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	return errors.New(refusedFlags[names[0]])
}

// hasNoEffect reports whether the flag changes nothing on any engine.
func hasNoEffect(fs *gflags.FlagSet, name string) bool {
	if noEffectFlags[name] {
		return true
	}
	f := fs.Lookup(name)
	return f != nil && toolFlagFiles[f.File]
}

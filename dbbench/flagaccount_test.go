package dbbench

import (
	"testing"

	"github.com/godbbench/godbbench/dbbench/flags"
	"github.com/godbbench/godbbench/internal/gflags"
	"github.com/godbbench/godbbench/options"
)

// TestEveryFlagAccountedOnce checks that every registered flag is read by
// the driver (configFlags), sets an engine option (options.Specs), belongs
// to the parser, or is declared to have no effect (noeffect.go), and that a
// flag with no effect is nothing else. It also checks that the lists name
// only registered flags, so a renamed or removed flag cannot linger.
func TestEveryFlagAccountedOnce(t *testing.T) {
	fs := gflags.NewFlagSet("db_bench", Version)
	flags.Register(fs)
	seen := map[string]bool{}
	fs.VisitAll(func(f *gflags.Flag) {
		seen[f.Name] = true
		read := driverFlags[f.Name] || options.FlagSpec(f.Name) != nil
		classes := 0
		for _, in := range []bool{read, parserFlags[f.Name], noEffectFlags[f.Name], toolFlagFiles[f.File]} {
			if in {
				classes++
			}
		}
		if classes != 1 {
			t.Errorf("--%s (listed under %s) is in %d of: read by the driver or an engine option, a parser flag, a no-effect flag, a tool flag", f.Name, f.File, classes)
		}
	})
	if len(seen) < 400 {
		t.Fatalf("only %d flags registered", len(seen))
	}
	check := func(list string, name string) {
		if !seen[name] {
			t.Errorf("%s names --%s, which is not a registered flag", list, name)
		}
	}
	for _, cf := range configFlags {
		check("configFlags", cf.name)
	}
	for i := range options.Specs {
		if f := options.Specs[i].Flag; f != "" {
			check("options.Specs", f)
		}
	}
	for n := range parserFlags {
		check("parserFlags", n)
	}
	groups := map[string]string{}
	for _, g := range noEffectGroups {
		for _, n := range g.flags {
			check("noEffectGroups", n)
			if prev, dup := groups[n]; dup {
				t.Errorf("--%s is in two no-effect groups: %q and %q", n, prev, g.feature)
			}
			groups[n] = g.feature
		}
	}
}

// TestConfigFlagsOnce checks that configFlags names each flag once and
// fills each config field once.
func TestConfigFlagsOnce(t *testing.T) {
	names := map[string]bool{}
	fields := map[any]string{}
	var c config
	for _, cf := range configFlags {
		if names[cf.name] {
			t.Errorf("configFlags lists --%s twice", cf.name)
		}
		names[cf.name] = true
		p := cf.field(&c)
		if prev, dup := fields[p]; dup {
			t.Errorf("--%s and --%s fill the same config field", prev, cf.name)
		}
		fields[p] = cf.name
	}
}

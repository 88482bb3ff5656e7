package dbbench

import (
	"github.com/godbbench/godbbench/dbbench/flags"
	"github.com/godbbench/godbbench/internal/gflags"
	"github.com/godbbench/godbbench/options"
)

// FlagClass says what this driver does with a flag.
type FlagClass string

// The classes of flags: every flag is in exactly one.
const (
	// FlagDriver: the driver reads it (counts, shapes, reporting).
	FlagDriver FlagClass = "driver"
	// FlagOption: it sets an engine option (options.Specs); the driver
	// may read it too.
	FlagOption FlagClass = "option"
	// FlagParser: the flag parser reads it (--flagfile, --help, ...).
	FlagParser FlagClass = "parser"
	// FlagNoEffect: accepted, warned about when set, and nothing changes.
	FlagNoEffect FlagClass = "no effect"
	// FlagTool: one of the analyzer tools' flags Debian's db_bench accepts
	// and ignores.
	FlagTool FlagClass = "tool"
)

// FlagRow describes one flag for the flag table (docs/FLAGS.md).
type FlagRow struct {
	Name, Default, Help string
	Class               FlagClass
	// Option is the engine option the flag sets, for FlagOption.
	Option *options.Spec
	// Feature is the no-effect group's feature, for FlagNoEffect, or what
	// a driver flag depends on (driverFlagNotes).
	Feature string
	// Refused, for FlagNoEffect, says why the run stops when the flag is
	// set away from its default (refusedFlags); "" for a warning.
	Refused string
}

// driverFlagNotes qualify driver flags whose effect depends on the engine.
var driverFlagNotes = map[string]string{
	"perf_level": "a perf context only where the engine keeps one (rocksdb); other engines warn",
	"engine":     "chooses the engine",
	"num_multi_db": "several databases in --db/0, --db/1, ... on every engine; a benchmark that runs on one database stops the run; " +
		"--statistics counts them all in one block",
}

func init() {
	for _, n := range []string{"writes_per_range_tombstone", "writes_before_delete_range",
		"range_tombstone_width", "max_num_range_tombstones", "expand_range_tombstones"} {
		driverFlagNotes[n] = "range deletions: range tombstones on every engine, point deletions with --expand_range_tombstones"
	}
}

// FlagTable lists every flag db_bench accepts, in name order, with its
// class.
func FlagTable() []FlagRow {
	fs := gflags.NewFlagSet("db_bench", Version)
	flags.Register(fs)
	feature := map[string]string{}
	for _, g := range noEffectGroups {
		for _, n := range g.flags {
			feature[n] = g.feature
		}
	}
	var rows []FlagRow
	fs.VisitAll(func(f *gflags.Flag) {
		row := FlagRow{Name: f.Name, Default: f.Default, Help: f.Help}
		switch {
		case options.FlagSpec(f.Name) != nil:
			row.Class, row.Option = FlagOption, options.FlagSpec(f.Name)
		case driverFlags[f.Name]:
			row.Class, row.Feature = FlagDriver, driverFlagNotes[f.Name]
		case parserFlags[f.Name]:
			row.Class = FlagParser
		case noEffectFlags[f.Name]:
			row.Class, row.Feature, row.Refused = FlagNoEffect, feature[f.Name], refusedFlags[f.Name]
		default:
			row.Class = FlagTool
		}
		rows = append(rows, row)
	})
	return rows
}

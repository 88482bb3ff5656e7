package lsm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/godbbench/godbbench/options"
)

// TestCompactionPickDataDriven runs testdata/compaction_pick. Commands:
//
//	define [levels=N] [l0-trigger=N] [l0-stop=N] [base=SIZE] [multiplier=F] [file-size=SIZE] [pri=N]
//	  a version (see parseVersion); prints it back
//	scores
//	  prints every level's score and target size
//	pick
//	  picks a compaction as the background loop does (marking its inputs
//	  compacting) and prints it, or "none"
//	done
//	  clears the compacting marks of every picked compaction
//	version
//	  prints the current version with its compacting marks
func TestCompactionPickDataDriven(t *testing.T) {
	var db *DB
	var picked []*compaction
	datadriven.RunTest(t, "testdata/compaction_pick", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "define":
			db, picked = pickTestDB(t, d), nil
			db.def.current = parseVersion(t, d.Input, db.numLevels)
			return formatVersion(db.def.current)
		case "scores":
			var b strings.Builder
			for level, s := range db.levelScores(db.def.current) {
				if level == 0 {
					fmt.Fprintf(&b, "L0: %.2f (files over trigger %d)\n", s, db.opts.Level0FileNumCompactionTrigger)
					continue
				}
				if level == db.numLevels-1 {
					fmt.Fprintf(&b, "L%d: last level, not scored\n", level)
					continue
				}
				fmt.Fprintf(&b, "L%d: %.2f (bytes over %.0f)\n", level, s, db.maxBytesForLevel(level))
			}
			return b.String()
		case "pick":
			c := db.pickCompaction()
			if c == nil {
				return "none\n"
			}
			picked = append(picked, c)
			return formatCompaction(db, c)
		case "done":
			for _, c := range picked {
				c.markCompacting(false)
			}
			picked = nil
			return "ok\n"
		case "version":
			return formatVersion(db.def.current)
		default:
			return fmt.Sprintf("unknown command %q\n", d.Cmd)
		}
	})
}

// pickTestDB is a DB with just the options and levels the picker reads.
func pickTestDB(t *testing.T, d *datadriven.TestData) *DB {
	o := options.Default()
	levels := 4
	for _, arg := range d.CmdArgs {
		switch arg.Key {
		case "levels":
			d.ScanArgs(t, "levels", &levels)
		case "l0-trigger":
			d.ScanArgs(t, "l0-trigger", &o.Level0FileNumCompactionTrigger)
		case "l0-stop":
			d.ScanArgs(t, "l0-stop", &o.Level0StopWritesTrigger)
		case "base":
			o.MaxBytesForLevelBase = parseSize(t, arg.SingleVal(t))
		case "multiplier":
			d.ScanArgs(t, "multiplier", &o.MaxBytesForLevelMultiplier)
		case "file-size":
			o.TargetFileSizeBase = int64(parseSize(t, arg.SingleVal(t)))
		case "pri":
			d.ScanArgs(t, "pri", &o.CompactionPri)
		default:
			t.Fatalf("define: unknown argument %q", arg.Key)
		}
	}
	db := &DB{opts: o, numLevels: levels, def: newFamily(0, defaultFamilyName, levels)}
	return db
}

// formatCompaction prints c's levels, flags, inputs, key range and output
// file size.
func formatCompaction(db *DB, c *compaction) string {
	var b strings.Builder
	fmt.Fprintf(&b, "L%d -> L%d", c.level, c.outputLevel)
	if c.trivialMove {
		b.WriteString(" trivial-move")
	}
	if c.bottommost {
		b.WriteString(" bottommost")
	}
	fmt.Fprintf(&b, "\n  range: %s-%s\n", c.smallest, c.largest)
	levels := [2]int{c.level, c.outputLevel}
	for i, files := range c.inputs {
		for _, f := range files {
			fmt.Fprintf(&b, "  L%d %s\n", levels[i], formatFileMeta(f))
		}
	}
	fmt.Fprintf(&b, "  output file size: %d\n", db.targetFileSize(c.outputLevel))
	return b.String()
}

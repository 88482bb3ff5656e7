package reliability

import (
	"fmt"
	"io"
	"strings"
)

// cell makes s safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// WriteCrashTable writes the crash-loop results as a Markdown table.
func WriteCrashTable(w io.Writer, rs []CrashResult) {
	fmt.Fprintln(w, "| engine | writes | kill cycles | killed while opening | batches acknowledged | acknowledged writes lost | unflushed writes dropped (disable_wal) | other failures |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---|")
	for _, r := range rs {
		var other []string
		for _, f := range r.Failures {
			if !strings.Contains(f, "acknowledged writes lost") {
				other = append(other, f)
			}
		}
		o := "none"
		if len(other) > 0 {
			o = cell(strings.Join(other, "; "))
		}
		dropped := "-"
		if strings.Contains(r.Config, "disable_wal") {
			dropped = fmt.Sprint(r.UnflushedLost)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %s | %s |\n", r.Engine, r.Config, r.Cycles, r.KilledOpening, r.AckedBatches, r.LostWrites, dropped, o)
	}
}

// WriteMatrixTables writes one Markdown table per corruption-matrix
// result, by file kind and outcome, then the failed trials.
func WriteMatrixTables(w io.Writer, rs []MatrixResult, maxListed int) {
	cols := append(append([]Outcome{}, Outcomes...), DeletedLiveColumn)
	for _, r := range rs {
		fmt.Fprintf(w, "\n#### %s (%s)\n\n", r.Engine, r.Config)
		if r.Err != "" {
			fmt.Fprintf(w, "Not run: %s\n", cell(r.Err))
			continue
		}
		fmt.Fprintf(w, "Database: %d files; %d writes compacted to the last level, %d flushed to level 0, %d left in the memtable and WAL.\n\n",
			len(r.Files), r.Phases[0], r.Phases[1], r.Phases[2])
		fmt.Fprint(w, "| file kind | trials |")
		for _, c := range cols {
			fmt.Fprintf(w, " %s |", c)
		}
		fmt.Fprint(w, "\n|---|---:|")
		fmt.Fprintln(w, strings.Repeat("---:|", len(cols)))
		counts := r.Counts()
		total := map[Outcome]int{}
		trials := 0
		for _, k := range FileKinds {
			c, ok := counts[k]
			if !ok {
				continue
			}
			n := 0
			for _, o := range Outcomes {
				n += c[o]
			}
			trials += n
			fmt.Fprintf(w, "| %s | %d |", k, n)
			for _, o := range cols {
				fmt.Fprintf(w, " %d |", c[o])
				total[o] += c[o]
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "| **all** | **%d** |", trials)
		for _, o := range cols {
			fmt.Fprintf(w, " **%d** |", total[o])
		}
		fmt.Fprintln(w)
		failed := r.Failed()
		if len(failed) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nFailed trials (%d", len(failed))
		if len(failed) > maxListed {
			fmt.Fprintf(w, ", first %d", maxListed)
			failed = failed[:maxListed]
		}
		fmt.Fprintln(w, "):")
		fmt.Fprintln(w)
		for _, t := range failed {
			d := t.Detail
			if len(t.DeletedLive) > 0 {
				d += fmt.Sprintf(" [deleted: %s]", strings.Join(t.DeletedLive, " "))
			}
			fmt.Fprintf(w, "- %s `%s` %s: **%s** %s\n", t.Kind, t.File, t.Damage, t.Outcome, d)
		}
	}
}

// WriteENOSPCTable writes the ENOSPC results as a Markdown table.
func WriteENOSPCTable(w io.Writer, rs []ENOSPCResult) {
	fmt.Fprintln(w, "| engine | writes | writer outcome | error reported | Close returned | batches acknowledged | reopen with room | acknowledged writes lost |")
	fmt.Fprintln(w, "|---|---|---|---|---|---:|---|---:|")
	for _, r := range rs {
		if r.Skipped != "" {
			fmt.Fprintf(w, "| %s | %s | not run: %s | | | | | |\n", r.Engine, r.Config, cell(r.Skipped))
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %v | %d | %s | %d |\n", r.Engine, r.Config, cell(r.Writer), cell(r.Error), r.CloseReturned, r.AckedBatches, cell(r.Reopen), r.LostWrites)
	}
}

// WriteBadInputTable writes the bad-input probes, one row each, one column
// per tool: exit status, the explaining line, and what was lost.
func WriteBadInputTable(w io.Writer, probes []BadInput, tools []Tool, res [][]BadInputResult) {
	fmt.Fprint(w, "| input |")
	for _, t := range tools {
		fmt.Fprintf(w, " %s |", t.Name)
	}
	fmt.Fprint(w, "\n|---|")
	fmt.Fprintln(w, strings.Repeat("---|", len(tools)))
	for i, p := range probes {
		fmt.Fprintf(w, "| %s |", cell(p.Name))
		for j := range tools {
			r := res[i][j]
			s := "exit " + r.Exit
			if r.Message != "" {
				s += ": " + r.Message
			}
			if r.Lost != "" {
				s += " **LOST: " + r.Lost + "**"
			}
			fmt.Fprintf(w, " %s |", cell(s))
		}
		fmt.Fprintln(w)
	}
}

// WriteSummary writes one row per engine: kill cycles and acknowledged
// writes lost (all crash configurations), the corruption matrix's totals
// (all its configurations), and the ENOSPC writer outcomes.
func WriteSummary(w io.Writer, engines []string, crash []CrashResult, matrix []MatrixResult, enospc []ENOSPCResult) {
	fmt.Fprintln(w, "| engine | kill cycles | acknowledged writes lost | reopen failures | corruption trials | silent wrong data | deleted live files | crashes (panic, SIGBUS, fatal exit) | hangs | open refused / read error | correct / older state | ENOSPC: error and exit | ENOSPC: hang or crash |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, e := range engines {
		cycles, lost, reopen := 0, 0, 0
		for _, r := range crash {
			if r.Engine != e {
				continue
			}
			cycles += r.Cycles
			lost += r.LostWrites
			for _, f := range r.Failures {
				if strings.Contains(f, "reopen") || strings.Contains(f, "read back") {
					reopen++
				}
			}
		}
		total := map[Outcome]int{}
		trials := 0
		for _, r := range matrix {
			if r.Engine != e {
				continue
			}
			for _, c := range r.Counts() {
				for o, n := range c {
					total[o] += n
					if o != DeletedLiveColumn {
						trials += n
					}
				}
			}
		}
		okExit, bad := 0, 0
		for _, r := range enospc {
			if r.Engine != e || r.Skipped != "" {
				continue
			}
			if r.Writer == "error, exit 1" && r.CloseReturned {
				okExit++
			} else {
				bad++
			}
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d / %d | %d / %d | %d | %d |\n", e, cycles, lost, reopen, trials,
			total[Wrong], total[DeletedLiveColumn], total[Crash], total[Hang], total[Refused], total[ReadError], total[Correct], total[Older], okExit, bad)
	}
}

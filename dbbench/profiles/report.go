package profiles

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// writeResultLine prints a workload phase in db_bench's result format, with
// the checksum appended:
//
//	profiles.insert : 12.345 micros/op 81004 ops/sec 1.234 seconds 100000 operations; (checksum 37C6E9056D5AC045)
//
// As in db_bench, micros/op is the worker time summed over workers per
// operation and ops/sec is operations per second of wall time.
func writeResultLine(w io.Writer, r PhaseResult, busySeconds float64) {
	micros, rate := 0.0, int64(0)
	if r.Ops > 0 {
		micros = busySeconds * 1e6 / float64(r.Ops)
	}
	if r.Seconds > 0 {
		rate = int64(float64(r.Ops) / r.Seconds)
	}
	fmt.Fprintf(w, "%-12s : %11.3f micros/op %d ops/sec %.3f seconds %d operations; (checksum %s)\n",
		r.Name, micros, rate, r.Seconds, r.Ops, FormatChecksum(r.Checksum))
}

// find returns the result named name, or nil.
func find(results []PhaseResult, name string) *PhaseResult {
	for i := range results {
		if results[i].Name == name {
			return &results[i]
		}
	}
	return nil
}

// sortedEngines returns the engine names in order.
func sortedEngines(byEngine map[string][]PhaseResult) []string {
	names := make([]string, 0, len(byEngine))
	for k := range byEngine {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// CompareChecksums checks that every engine produced the same phases with the
// same checksums, the final (verify) checksum included, as the reference's
// cross-engine validation does. Engines are compared with the first by name;
// the error names the phase, both engines and both values.
func CompareChecksums(byEngine map[string][]PhaseResult) error {
	names := sortedEngines(byEngine)
	if len(names) < 2 {
		return nil
	}
	base := names[0]
	want := checksummed(byEngine[base])
	for _, name := range names[1:] {
		got := checksummed(byEngine[name])
		if len(got) != len(want) {
			return fmt.Errorf("profiles: %s has %d checksum phases, %s has %d", name, len(got), base, len(want))
		}
		for i := range want {
			if got[i].Name != want[i].Name {
				return fmt.Errorf("profiles: phase %d is %s in %s but %s in %s", i, got[i].Name, name, want[i].Name, base)
			}
			if got[i].Checksum != want[i].Checksum {
				return fmt.Errorf("profiles: checksum mismatch in phase %s: %s has %s, %s has %s",
					want[i].Name, base, FormatChecksum(want[i].Checksum), name, FormatChecksum(got[i].Checksum))
			}
		}
	}
	return nil
}

// checksummed returns the results that carry a checksum, in order.
func checksummed(results []PhaseResult) []PhaseResult {
	var out []PhaseResult
	for _, r := range results {
		if isWorkloadPhase(r.Name) || r.Name == PhaseVerify {
			out = append(out, r)
		}
	}
	return out
}

// WriteMarkdown writes a report laid out like the reference's: totals by
// engine, write readiness (a write phase plus the stabilize after it),
// the cross-engine checksum check, and the phase results of each engine.
// Engines appear in name order.
func WriteMarkdown(w io.Writer, byEngine map[string][]PhaseResult) error {
	var b strings.Builder
	names := sortedEngines(byEngine)
	b.WriteString("## Total By Engine\n\n")
	b.WriteString("| Engine | Completed phase time | Pre-read stabilize | Post-update stabilize | Settle | Reopen | Verify | Storage | Process peak memory | Final checksum |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, name := range names {
		rs := byEngine[name]
		total := 0.0
		for _, r := range rs {
			if isWorkloadPhase(r.Name) {
				total += r.Seconds
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name,
			formatMillis(total),
			secondsOf(rs, PhasePreReadStabilize), secondsOf(rs, PhasePostUpdateStabilize),
			secondsOf(rs, PhaseSettle), secondsOf(rs, PhaseReopen), secondsOf(rs, PhaseVerify),
			bytesOf(rs, PhaseStorage), bytesOf(rs, PhasePeakMemory), checksumOf(rs, PhaseVerify))
	}

	b.WriteString("\n## Write Readiness\n\n")
	b.WriteString("| Engine | Insert | Pre-read stabilize | Insert + stabilize | Insert ready throughput | Update | Post-update stabilize | Update + stabilize | Update ready throughput |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, name := range names {
		rs := byEngine[name]
		fmt.Fprintf(&b, "| %s | %s | %s |\n", name,
			readiness(rs, PhaseInsert, PhasePreReadStabilize),
			readiness(rs, PhaseUpdate, PhasePostUpdateStabilize))
	}

	b.WriteString("\n## Correctness\n\n")
	if err := CompareChecksums(byEngine); err != nil {
		fmt.Fprintf(&b, "Checksum validation FAILED: %v\n", err)
	} else {
		fmt.Fprintf(&b, "Checksum validation passed across engines: %s.\n", strings.Join(names, ", "))
	}

	b.WriteString("\n## Phase Results\n")
	for _, name := range names {
		fmt.Fprintf(&b, "\n### %s\n\n", name)
		b.WriteString("| Phase | Operations | Time | Throughput | Checksum |\n")
		b.WriteString("| --- | ---: | ---: | ---: | --- |\n")
		for _, r := range byEngine[name] {
			label, ok := referenceLabels[r.Name]
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s/s | `%s` |\n", label, formatInteger(float64(r.Ops)),
				formatMillis(r.Seconds), formatInteger(rate(r.Ops, r.Seconds)), FormatChecksum(r.Checksum))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// readiness formats the five write-readiness cells of one write phase.
func readiness(rs []PhaseResult, write, stabilize string) string {
	wr, st := find(rs, write), find(rs, stabilize)
	if wr == nil {
		return "n/a | n/a | n/a | n/a"
	}
	stab, stabCell := 0.0, "n/a"
	if st != nil {
		stab, stabCell = st.Seconds, formatMillis(st.Seconds)
	}
	ready := wr.Seconds + stab
	return fmt.Sprintf("%s | %s | %s | %s/s", formatMillis(wr.Seconds), stabCell, formatMillis(ready),
		formatInteger(rate(wr.Ops, ready)))
}

func rate(ops int64, seconds float64) float64 {
	if seconds <= 0 {
		return 0
	}
	return float64(ops) / seconds
}

func secondsOf(rs []PhaseResult, name string) string {
	if r := find(rs, name); r != nil {
		return formatMillis(r.Seconds)
	}
	return "n/a"
}

func bytesOf(rs []PhaseResult, name string) string {
	if r := find(rs, name); r != nil {
		return formatBytes(r.Bytes)
	}
	return "n/a"
}

func checksumOf(rs []PhaseResult, name string) string {
	if r := find(rs, name); r != nil {
		return "`" + FormatChecksum(r.Checksum) + "`"
	}
	return "n/a"
}

// formatMillis writes seconds as whole milliseconds, "1_234 ms".
func formatMillis(seconds float64) string { return formatInteger(seconds*1000) + " ms" }

// formatInteger rounds half away from zero and groups digits with '_', as
// the reference's report does.
func formatInteger(v float64) string {
	n := int64(math.Round(v))
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, '_')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// formatBytes writes a size in 1024-based units with one decimal, "7.4 GB".
func formatBytes(n int64) string {
	units := []string{"B", "KB", "MB", "GB", "TB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[u]
}

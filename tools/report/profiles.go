package report

import (
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/dbbench/profiles"
	"github.com/godbbench/godbbench/tools/runner"
)

// writeProfiles writes profiles.md, laid out like ZoneTree's report (total by
// engine, write readiness, phase results), for every pass that ran the
// profiles workload. It reports whether there was any.
func writeProfiles(run *runner.Run) (bool, error) {
	byPass := map[string]map[string][]profiles.PhaseResult{}
	var passes []string
	for _, pr := range run.Results {
		for _, rec := range pr.Records {
			if !strings.HasPrefix(rec.Benchmark, "profiles.") {
				continue
			}
			if byPass[pr.Pass] == nil {
				byPass[pr.Pass] = map[string][]profiles.PhaseResult{}
				passes = append(passes, pr.Pass)
			}
			sum, _ := strconv.ParseUint(rec.Checksum, 16, 64)
			byPass[pr.Pass][pr.Engine] = append(byPass[pr.Pass][pr.Engine], profiles.PhaseResult{
				Name: rec.Benchmark, Ops: rec.Ops, Seconds: rec.Seconds, Checksum: sum, Bytes: rec.Bytes})
		}
	}
	if len(passes) == 0 {
		return false, nil
	}
	return true, writeFile(filepath.Join(run.Dir, "profiles.md"), func(w io.Writer) error {
		for _, p := range passes {
			io.WriteString(w, "# Profiles workload: pass "+p+"\n\n")
			if err := profiles.WriteMarkdown(w, byPass[p]); err != nil {
				return err
			}
			if err := profiles.CompareChecksums(byPass[p]); err != nil {
				io.WriteString(w, "\n**Checksum mismatch:** "+err.Error()+"\n")
			}
			io.WriteString(w, "\n")
		}
		return nil
	})
}

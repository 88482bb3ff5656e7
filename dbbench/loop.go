package dbbench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/engine"
)

// errExit is returned to Main for db_bench's ErrorExit paths: the message has
// already been printed and the exit code is 1.
type errExit struct{ msg string }

func (e errExit) Error() string { return e.msg }

// runList runs every item of --benchmarks in order, as db_bench's
// Benchmark::Run does.
func (r *runner) runList() error {
	for _, item := range strings.Split(r.cfg.benchmarks, ",") {
		if item == "" {
			continue
		}
		if err := r.runItem(item); err != nil {
			return err
		}
	}
	return nil
}

// resetPerBenchmark restores the counts every item starts from.
func (r *runner) resetPerBenchmark() {
	c := &r.cfg
	r.num = c.num
	r.reads = c.reads
	if r.reads < 0 {
		r.reads = c.num
	}
	r.writes = c.writes
	if r.writes < 0 {
		r.writes = c.num
	}
	r.readwrites = c.readwrites
	r.deletes = c.deletes
	if r.deletes < 0 {
		r.deletes = c.num
	}
	r.keySize = c.keySize
	r.valueSize = c.valueSize
	r.entriesPerBatch = c.batchSize
	r.wo = engine.WriteOptions{Sync: c.sync, DisableWAL: c.disableWAL}
	r.shape = valueShape{fixed: c.valueSize, dist: c.valueDist, min: c.valueSizeMin, max: c.valueSizeMax, ratio: c.compressionRatio}
}

// parseItemArgs splits "name[X3-W1]" into the name, repeats and warm-ups.
// The arguments run from the first '[' to the final ']' and are split on '-';
// parts other than Xn and Wn are ignored, as in db_bench.
func parseItemArgs(item string) (name string, repeat, warmup int, err error) {
	name, repeat = item, 1
	if !strings.HasSuffix(item, "]") {
		return name, repeat, 0, nil
	}
	i := strings.IndexByte(item, '[')
	if i < 0 {
		return "", 0, 0, fmt.Errorf("unknown benchmark arguments '%s'", item)
	}
	args := item[i+1 : len(item)-1]
	name = item[:i]
	for _, a := range strings.Split(args, "-") {
		if a == "" || (a[0] != 'X' && a[0] != 'W') {
			continue
		}
		n, ok := stoi(a[1:])
		if !ok {
			// db_bench's std::stoi throws here and the process aborts.
			return "", 0, 0, fmt.Errorf("invalid count '%s' in benchmark arguments '%s'", a, item)
		}
		if a[0] == 'X' {
			repeat = n
		} else {
			warmup = n
		}
	}
	return name, repeat, warmup, nil
}

// stoi parses as std::stoi does: leading white space, an optional sign, at
// least one decimal digit (trailing junk ignored), within int32; ok is false
// where std::stoi would throw.
func stoi(s string) (n int, ok bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	j := 0
	if j < len(s) && (s[j] == '-' || s[j] == '+') {
		j++
	}
	start := j
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == start {
		return 0, false
	}
	v, err := strconv.ParseInt(s[:j], 10, 32)
	if err != nil {
		return 0, false
	}
	return int(v), true
}

func (r *runner) runItem(item string) error {
	r.resetPerBenchmark()
	name, repeat, warmup, err := parseItemArgs(item)
	if err != nil {
		r.out.Flush()
		r.errf("%s\n", err)
		return errExit{err.Error()}
	}
	spec, def, known, err := r.resolve(name)
	r.familyStats = familyStatsBenchmarks[name]
	if err != nil {
		return err
	}
	if !known {
		r.out.Flush()
		r.errf("unknown benchmark '%s'\n", name)
		return errExit{"unknown benchmark"}
	}
	if err := r.checkSeveralDBs(name); err != nil {
		return err
	}
	if spec.skip {
		r.out.Flush()
		r.errf("%s : skipped (not implemented by this db_bench)\n", name)
		return nil
	}
	if def.meta != nil {
		if err := def.meta(r); err != nil {
			return err
		}
		r.out.Flush()
		return nil
	}
	if spec.fresh {
		if r.cfg.useExistingDB {
			r.outf("%-12s : skipped (--use_existing_db is true)\n", name)
			spec.fn = nil
		} else if err := r.reopenFresh(); err != nil {
			return err
		}
	}
	if spec.fn == nil {
		r.out.Flush()
		return nil
	}
	if kp := r.keys.keysPerPrefix; kp > 0 && r.keys.num > 0 && r.keys.num/kp == 0 {
		// db_bench takes v % (num / keys_per_prefix) for every key and dies
		// of SIGFPE here; say why instead.
		r.out.Flush()
		r.errf("%s: --num=%d is less than --keys_per_prefix=%d, which leaves no prefix for any key\n", name, r.keys.num, kp)
		return errExit{"no prefixes"}
	}
	r.outf("DB path: [%s]\n", r.cfg.db)
	r.printBackupPaths(name)
	if err := r.beginTrace(name); err != nil {
		return err
	}
	defer r.endTrace()
	if warmup > 0 {
		r.outf("Warming up benchmark by running %d times\n", warmup)
	}
	for i := 0; i < warmup; i++ {
		if _, err := r.runBenchmark(spec.threads, name, spec.fn, true); err != nil {
			return r.benchError(err)
		}
	}
	if repeat > 1 {
		r.outf("Running benchmark for %d times\n", repeat)
	}
	var combined combinedStats
	for i := 0; i < repeat; i++ {
		st, err := r.runBenchmark(spec.threads, name, spec.fn, false)
		if err != nil {
			return r.benchError(err)
		}
		combined.add(st)
		if r.cfg.confidenceIntervalOnly {
			combined.reportCI(r.out, name)
		} else {
			combined.report(r.out, name)
		}
	}
	if repeat > 1 {
		combined.reportFinal(r.out, name)
	}
	if def.post != nil {
		if err := def.post(r); err != nil {
			return r.benchError(err)
		}
	}
	r.out.Flush()
	r.benchIndex++
	return nil
}

func (r *runner) benchError(err error) error {
	r.out.Flush()
	r.errf("%s\n", err)
	return errExit{err.Error()}
}

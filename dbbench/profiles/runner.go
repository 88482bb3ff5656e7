package profiles

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/osfile"
)

// Run runs the whole workload against five stores opened with cfg.Open under
// cfg.Dir (one sub-directory per store, see StoreDirs; existing stores there
// are deleted first with cfg.Destroy, as the reference starts from empty
// stores), in the
// reference's order: insert, pre-read stabilize, the eight read/scan/query
// phases, update, post-update stabilize, the six post-update phases, settle,
// storage size, close, reopen and verify. It prints one line per step to
// cfg.Out and returns them all: the 16 workload phases (Ops, Seconds,
// Checksum), the stabilize/settle/reopen steps (Seconds), storage and peak
// memory (Bytes) and verify (Seconds, Checksum: the final checksum).
//
// A missing profile, a malformed record or any engine error stops the run
// with an error naming the phase.
func Run(cfg Config) ([]PhaseResult, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	if err := cfg.validateForRun(); err != nil {
		return nil, err
	}
	// The plan is drawn before any store exists, as in the reference; it
	// takes 4 bytes per id, 1 per country/status query and 4 per created-at
	// query: 2.2 GB at N=100M.
	plan, err := NewPlan(cfg.Profiles, cfg.Queries, cfg.Seed)
	if err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, plan: plan, gen: NewGenerator(cfg.Seed)}
	if err := r.reset(); err != nil {
		return nil, err
	}
	if err := r.open(); err != nil {
		return nil, err
	}
	err = r.workload()
	if cerr := r.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return r.results, err
	}
	if err := r.reopenAndVerify(); err != nil {
		return r.results, err
	}
	peak := peakRSS()
	r.results = append(r.results, PhaseResult{Name: PhasePeakMemory, Bytes: peak})
	fmt.Fprintf(cfg.Out, "%-12s : %d bytes\n", PhasePeakMemory, peak)
	return r.results, nil
}

// runner holds one Run.
type runner struct {
	cfg     Config
	plan    *Plan
	gen     Generator
	dbs     [storeCount]engine.DB
	workers []*worker
	results []PhaseResult
}

// reset deletes the five stores under Dir with cfg.Destroy, which removes
// only the engine's files, never a directory of the user's that happens to
// bear a store's name.
func (r *runner) reset() error {
	if err := osfile.MkdirAllDurable(osfile.OS{}, r.cfg.Dir); err != nil {
		return fmt.Errorf("profiles: %w", err)
	}
	if r.cfg.Destroy == nil {
		return nil
	}
	for i, path := range StoreDirs(r.cfg.Dir) {
		if err := r.cfg.Destroy(path); err != nil {
			return fmt.Errorf("profiles: clearing %s: %w", storeNames[i], err)
		}
	}
	return nil
}

// open opens the five stores and makes one worker per thread.
func (r *runner) open() error {
	for i, name := range storeNames {
		db, err := r.cfg.Open(filepath.Join(r.cfg.Dir, name))
		if err != nil {
			r.close()
			return fmt.Errorf("profiles: opening %s: %w", name, err)
		}
		r.dbs[i] = db
	}
	r.workers = make([]*worker, r.cfg.Threads)
	for i := range r.workers {
		r.workers[i] = newWorker(&r.dbs, r.gen)
	}
	return nil
}

// close closes every open store, returning the first error.
func (r *runner) close() error {
	var first error
	for i, db := range r.dbs {
		if db == nil {
			continue
		}
		if err := db.Close(); err != nil && first == nil {
			first = fmt.Errorf("profiles: closing %s: %w", storeNames[i], err)
		}
		r.dbs[i] = nil
	}
	return first
}

// workload runs everything from insert to settle and storage size.
func (r *runner) workload() error {
	n := int(r.cfg.Profiles)
	p := r.plan
	steps := []func() error{
		func() error {
			return r.measure(PhaseInsert, n, r.slices(n, func(w *worker, i int) error {
				id := int64(i) + 1
				if err := w.insert(id); err != nil {
					return err
				}
				w.sum.AddInt64(id)
				return nil
			}))
		},
		func() error { return r.stabilize(PhasePreReadStabilize) },
		func() error { return r.readPhase(PhaseReadByUserID, p.PointReads, false) },
		func() error { return r.readPhase(PhaseLookupByEmail, p.EmailReads, true) },
		func() error { return r.countryStatusPhase(PhaseScanCountryStatus, p.CountryStatus, false) },
		func() error { return r.countryStatusPhase(PhaseQueryCountryStatus, p.CountryStatus, true) },
		func() error { return r.createdAtPhase(PhaseScanCreatedAt, false) },
		func() error { return r.createdAtPhase(PhaseQueryCreatedAt, true) },
		func() error { return r.topReputationPhase(PhaseScanTopReputation, false) },
		func() error { return r.topReputationPhase(PhaseQueryTopReputation, true) },
		r.updatePhase,
		func() error { return r.stabilize(PhasePostUpdateStabilize) },
		func() error { return r.readPhase(PhasePostReadByUserID, p.PostPointReads, false) },
		func() error { return r.readPhase(PhasePostLookupByEmail, p.PostEmailReads, true) },
		func() error { return r.countryStatusPhase(PhasePostScanCountryStatus, p.PostCountryStatus, false) },
		func() error { return r.countryStatusPhase(PhasePostQueryCountryStatus, p.PostCountryStatus, true) },
		func() error { return r.topReputationPhase(PhasePostScanTopReputation, false) },
		func() error { return r.topReputationPhase(PhasePostQueryTopReputation, true) },
		func() error { return r.stabilize(PhaseSettle) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	size, err := dirSize(r.cfg.Dir)
	if err != nil {
		return fmt.Errorf("profiles: storage size: %w", err)
	}
	r.results = append(r.results, PhaseResult{Name: PhaseStorage, Bytes: size})
	fmt.Fprintf(r.cfg.Out, "%-12s : %d bytes\n", PhaseStorage, size)
	return nil
}

// workerBody is one worker's share of a phase; index is the worker's number.
type workerBody func(w *worker, index int) (active bool, err error)

// slices makes a body that gives worker index its contiguous slice of total
// items and calls op for each item, in order.
func (r *runner) slices(total int, op func(w *worker, i int) error) workerBody {
	return func(w *worker, index int) (bool, error) {
		start, count := partition(total, index, len(r.workers))
		for i := start; i < start+count; i++ {
			if err := op(w, i); err != nil {
				return true, err
			}
		}
		return count > 0, nil
	}
}

// measure runs body on every worker at once, timing from the moment all
// workers are ready until the last one finishes (the reference's start gate),
// merges the worker checksums and prints the db_bench result line.
func (r *runner) measure(name string, ops int, body workerBody) error {
	workers := r.workers
	parts := make([]WorkerChecksum, len(workers))
	errs := make([]error, len(workers))
	var ready, done sync.WaitGroup
	gate := make(chan struct{})
	ready.Add(len(workers))
	done.Add(len(workers))
	for i, w := range workers {
		go func() {
			defer done.Done()
			w.sum = NewChecksum()
			ready.Done()
			<-gate
			t0 := time.Now()
			active, err := body(w, i)
			w.busy = time.Since(t0).Seconds()
			parts[i] = WorkerChecksum{Active: active, Sum: w.sum.Sum()}
			errs[i] = err
		}()
	}
	ready.Wait()
	start := time.Now()
	close(gate)
	done.Wait()
	elapsed := time.Since(start).Seconds()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("profiles: phase %s: %w", name, err)
	}
	busy := 0.0
	for _, w := range workers {
		busy += w.busy
	}
	res := PhaseResult{Name: name, Ops: int64(ops), Seconds: elapsed, Checksum: MergeChecksums(parts)}
	r.results = append(r.results, res)
	writeResultLine(r.cfg.Out, res, busy)
	return nil
}

// stabilize runs cfg.Stabilize on each store in turn and records the time.
func (r *runner) stabilize(name string) error {
	start := time.Now()
	for i, db := range r.dbs {
		if err := r.cfg.Stabilize(db); err != nil {
			return fmt.Errorf("profiles: %s of %s: %w", name, storeNames[i], err)
		}
	}
	r.timed(name, time.Since(start).Seconds())
	return nil
}

// timed records and prints a step that has only a duration.
func (r *runner) timed(name string, seconds float64) {
	r.results = append(r.results, PhaseResult{Name: name, Seconds: seconds})
	fmt.Fprintf(r.cfg.Out, "%-12s : %.3f seconds\n", name, seconds)
}

// readPhase reads the profile of every plan id, by user id or through the
// email index, folding each full profile.
func (r *runner) readPhase(name string, ids []int32, byEmail bool) error {
	return r.measure(name, len(ids), r.slices(len(ids), func(w *worker, i int) error {
		id := int64(ids[i])
		var err error
		if byEmail {
			err = w.lookupByEmail(id, &w.cur)
		} else {
			err = w.mustGetByID(id, &w.cur)
		}
		if err != nil {
			return err
		}
		w.sum.AddProfile(&w.cur)
		return nil
	}))
}

func (r *runner) countryStatusPhase(name string, queries []uint8, withProfiles bool) error {
	limit := r.cfg.QueryLimit
	return r.measure(name, len(queries), r.slices(len(queries), func(w *worker, i int) error {
		return w.countryStatus(queries[i], limit, withProfiles)
	}))
}

func (r *runner) createdAtPhase(name string, withProfiles bool) error {
	starts := r.plan.CreatedAtStarts
	limit := r.cfg.QueryLimit
	return r.measure(name, len(starts), r.slices(len(starts), func(w *worker, i int) error {
		from, to := r.plan.CreatedAtBounds(w.gen, starts[i])
		return w.createdAtRange(from, to, limit, withProfiles)
	}))
}

func (r *runner) topReputationPhase(name string, withProfiles bool) error {
	q := int(r.cfg.Queries)
	limit := r.cfg.QueryLimit
	return r.measure(name, q, r.slices(q, func(w *worker, _ int) error {
		return w.topReputation(limit, withProfiles)
	}))
}

// updatePhase gives worker k the plan's update ids with id%Threads == k, in
// plan order, so that each id's updates apply in order.
func (r *runner) updatePhase() error {
	nw := len(r.workers)
	buckets := make([][]int32, nw)
	if nw == 1 {
		buckets[0] = r.plan.Updates
	} else {
		for _, id := range r.plan.Updates {
			b := int(id) % nw
			buckets[b] = append(buckets[b], id)
		}
	}
	return r.measure(PhaseUpdate, len(r.plan.Updates), func(w *worker, index int) (bool, error) {
		for _, id := range buckets[index] {
			if err := w.update(int64(id)); err != nil {
				return true, err
			}
		}
		return len(buckets[index]) > 0, nil
	})
}

// reopenAndVerify times reopening the five stores, then verify: count the
// profiles with a full iterator walk and read ids 1, max(1, N/2) and N.
func (r *runner) reopenAndVerify() error {
	start := time.Now()
	if err := r.open(); err != nil {
		return err
	}
	r.timed(PhaseReopen, time.Since(start).Seconds())

	start = time.Now()
	sum, err := r.verify()
	if cerr := r.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("profiles: phase %s: %w", PhaseVerify, err)
	}
	res := PhaseResult{Name: PhaseVerify, Seconds: time.Since(start).Seconds(), Checksum: sum}
	r.results = append(r.results, res)
	fmt.Fprintf(r.cfg.Out, "%-12s : %.3f seconds (checksum %s)\n", PhaseVerify, res.Seconds, FormatChecksum(sum))
	return nil
}

func (r *runner) verify() (uint64, error) {
	it, err := r.dbs[storeProfiles].NewIter(&engine.IterOptions{})
	if err != nil {
		return 0, err
	}
	var count int64
	for ok := it.First(); ok; ok = it.Next() {
		count++
	}
	if err := it.Error(); err != nil {
		it.Close()
		return 0, err
	}
	if err := it.Close(); err != nil {
		return 0, err
	}
	c := NewChecksum()
	c.AddInt64(count)
	w := r.workers[0]
	n := r.cfg.Profiles
	for _, id := range []int64{1, max(1, n/2), n} {
		if err := w.mustGetByID(id, &w.cur); err != nil {
			return 0, err
		}
		c.AddProfile(&w.cur)
	}
	return c.Sum(), nil
}

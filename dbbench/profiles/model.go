package profiles

import (
	"fmt"
	"math"
	"sort"
	"sync"
)

// Model computes every checksum of a run from the generator and the plan
// alone, with no storage engine: the value each phase of Run must produce for
// cfg (Profiles, Queries, QueryLimit, Seed and Threads are used; Dir, Open,
// Stabilize and Out are ignored). It returns one PhaseResult per checksum
// phase, in run order, with Ops and Checksum set.
//
// It works from closed forms of what the stores hold instead of a store:
//   - the only state is how many times each id has been updated (one byte per
//     id, 100 MB at N=100M); a profile is regenerated and updated k times;
//   - country/status results are the lowest QueryLimit ids of each of the 128
//     pairs; created-at results are ids start..start+QueryLimit-1 (creation
//     time rises strictly with id); top reputation is the QueryLimit best
//     (reputation descending, id ascending) over all ids.
//
// Independent phases run on separate goroutines. Cost: the query phases fold
// about 45 words per returned profile, so at N=100M (25M queries x 100
// profiles x 5 query phases) the model folds about 5.6e11 words (~12 minutes
// of one core at ~1.3 ns per word) and regenerates 2.5e9 profiles for the
// created-at queries (~130 ns each, ~5 minutes); memory is the plan (2.2 GB)
// plus one byte per id. Measured on a busy 2-core machine: N=100K 0.4 s,
// 500K 2.5 s, 1M 7.4 s (wall).
func Model(cfg Config) ([]PhaseResult, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	plan, err := NewPlan(cfg.Profiles, cfg.Queries, cfg.Seed)
	if err != nil {
		return nil, err
	}
	m := &model{
		cfg:  cfg,
		gen:  NewGenerator(cfg.Seed),
		plan: plan,
	}
	return m.run()
}

// modelWithoutQueries is Model minus the five query phases (country/status,
// created-at and top-reputation queries, before and after the update), which
// cost over 95% of its time at large N; the other twelve checksums come out
// the same. It makes the 100M check affordable: 259 s of CPU and 2.2 GB
// (measured, one run on a busy 2-core machine, 14 minutes wall).
func modelWithoutQueries(cfg Config) ([]PhaseResult, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	plan, err := NewPlan(cfg.Profiles, cfg.Queries, cfg.Seed)
	if err != nil {
		return nil, err
	}
	m := &model{cfg: cfg, gen: NewGenerator(cfg.Seed), plan: plan, skipQueries: true}
	return m.run()
}

// model holds one Model computation.
type model struct {
	cfg     Config
	gen     Generator
	plan    *Plan
	updates []uint8 // updates[id]: times id was updated; nil before the update phase
	// skipQueries leaves out the phases that read profiles for index
	// entries (see modelWithoutQueries).
	skipQueries bool
}

// run computes all phases: the pre-update ones concurrently, then the update
// phase, then the post-update ones and verify concurrently.
func (m *model) run() ([]PhaseResult, error) {
	n := int(m.cfg.Profiles)
	q := len(m.plan.CountryStatus)
	sums := make(map[string]uint64, len(checksumPhases))
	ops := make(map[string]int64, len(checksumPhases))
	var mu sync.Mutex
	var wg sync.WaitGroup
	set := func(name string, count int, v uint64) {
		if m.skipQueries && isQueryPhase(name) {
			return
		}
		mu.Lock()
		sums[name] = v
		ops[name] = int64(count)
		mu.Unlock()
	}
	goPhase := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}

	goPhase(func() {
		set(PhaseInsert, n, m.foldSlices(n, func(c *Checksum, i int) { c.AddInt64(int64(i) + 1) }))
	})
	goPhase(func() { set(PhaseReadByUserID, n, m.foldProfiles(m.plan.PointReads)) })
	goPhase(func() { set(PhaseLookupByEmail, n, m.foldProfiles(m.plan.EmailReads)) })
	goPhase(func() {
		scan, query := m.countryStatus(m.plan.CountryStatus)
		set(PhaseScanCountryStatus, q, scan)
		set(PhaseQueryCountryStatus, q, query)
	})
	goPhase(func() {
		scan, query := m.createdAt()
		set(PhaseScanCreatedAt, q, scan)
		set(PhaseQueryCreatedAt, q, query)
	})
	goPhase(func() {
		scan, query := m.topReputation(q)
		set(PhaseScanTopReputation, q, scan)
		set(PhaseQueryTopReputation, q, query)
	})
	wg.Wait()

	upd, err := m.update()
	if err != nil {
		return nil, err
	}
	set(PhaseUpdate, len(m.plan.Updates), upd)

	goPhase(func() { set(PhasePostReadByUserID, n, m.foldProfiles(m.plan.PostPointReads)) })
	goPhase(func() { set(PhasePostLookupByEmail, n, m.foldProfiles(m.plan.PostEmailReads)) })
	goPhase(func() {
		scan, query := m.countryStatus(m.plan.PostCountryStatus)
		set(PhasePostScanCountryStatus, q, scan)
		set(PhasePostQueryCountryStatus, q, query)
	})
	goPhase(func() {
		scan, query := m.topReputation(q)
		set(PhasePostScanTopReputation, q, scan)
		set(PhasePostQueryTopReputation, q, query)
	})
	goPhase(func() { set(PhaseVerify, 0, m.verify()) })
	wg.Wait()

	out := make([]PhaseResult, 0, len(checksumPhases))
	for _, name := range checksumPhases {
		if _, done := sums[name]; done {
			out = append(out, PhaseResult{Name: name, Ops: ops[name], Checksum: sums[name]})
		}
	}
	return out, nil
}

// foldSlices folds items 0..total-1 split over the configured workers and
// merges the worker checksums as the reference does.
func (m *model) foldSlices(total int, fold func(c *Checksum, i int)) uint64 {
	parts := make([]WorkerChecksum, m.cfg.Threads)
	for w := range parts {
		start, count := partition(total, w, len(parts))
		if count == 0 {
			continue
		}
		c := NewChecksum()
		for i := start; i < start+count; i++ {
			fold(&c, i)
		}
		parts[w] = WorkerChecksum{Active: true, Sum: c.Sum()}
	}
	return MergeChecksums(parts)
}

// profileAt fills p with profile id as the stores hold it now.
func (m *model) profileAt(p *Profile, id int64) {
	m.gen.Create(p, id)
	if m.updates != nil {
		for k := m.updates[id]; k > 0; k-- {
			m.gen.Update(p)
		}
	}
}

// foldProfiles is a read phase: the full profile of every id, in plan order.
func (m *model) foldProfiles(ids []int32) uint64 {
	var p Profile
	return m.foldSlices(len(ids), func(c *Checksum, i int) {
		m.profileAt(&p, int64(ids[i]))
		c.AddProfile(&p)
	})
}

// statusAt returns the status index of id after its updates.
func (m *model) statusAt(id int64) (country, status int) {
	country, status = m.gen.countryStatus(id)
	if m.updates != nil && id%4 == 0 {
		status = (status + int(m.updates[id])) % len(statusValues)
	}
	return country, status
}

// countryStatus returns the scan and query checksums of a country/status
// phase pair: each query yields the QueryLimit lowest ids of its pair.
func (m *model) countryStatus(queries []uint8) (scan, query uint64) {
	const pairs = len(countryCodes) * len(statusValues)
	limit := m.cfg.QueryLimit
	var ids [pairs][]int64
	full := 0
	for id := int64(1); id <= m.cfg.Profiles && full < pairs; id++ {
		c, s := m.statusAt(id)
		b := c*len(statusValues) + s
		if len(ids[b]) < limit {
			ids[b] = append(ids[b], id)
			if len(ids[b]) == limit {
				full++
			}
		}
	}
	// Fold each pair's result once into a word list; a query then folds the
	// list (scan: ids; query: profiles).
	var scanWords, queryWords [pairs][]uint64
	var p Profile
	for b := range ids {
		for _, id := range ids[b] {
			scanWords[b] = append(scanWords[b], uint64(id))
			if !m.skipQueries {
				m.profileAt(&p, id)
				queryWords[b] = appendProfileWords(queryWords[b], &p)
			}
		}
	}
	scan = m.foldSlices(len(queries), func(c *Checksum, i int) { c.addWords(scanWords[queries[i]]) })
	if m.skipQueries {
		return scan, 0
	}
	query = m.foldSlices(len(queries), func(c *Checksum, i int) { c.addWords(queryWords[queries[i]]) })
	return scan, query
}

// createdAt returns the scan and query checksums of the created-at phases:
// a query from start returns ids start..min(start+5000, N), cut at QueryLimit.
func (m *model) createdAt() (scan, query uint64) {
	starts := m.plan.CreatedAtStarts
	limit := int64(m.cfg.QueryLimit)
	n := m.cfg.Profiles
	last := func(start int64) int64 {
		return min(start+limit-1, min(n, start+createdAtSpan))
	}
	scan = m.foldSlices(len(starts), func(c *Checksum, i int) {
		start := int64(starts[i])
		for id := start; id <= last(start); id++ {
			c.AddInt64(id)
		}
	})
	if m.skipQueries {
		return scan, 0
	}
	var p Profile
	query = m.foldSlices(len(starts), func(c *Checksum, i int) {
		start := int64(starts[i])
		for id := start; id <= last(start); id++ {
			m.profileAt(&p, id)
			c.AddProfile(&p)
		}
	})
	return scan, query
}

// reputationAt returns the reputation of id after its updates.
func (m *model) reputationAt(id int64) int32 {
	_, b := m.gen.draws(id)
	rep := int32(b % 1_000_000)
	if m.updates == nil || m.updates[id] == 0 {
		return rep
	}
	delta := int32(mix(uint64(id)+m.gen.seed+updateSalt)%501) - 250
	for k := m.updates[id]; k > 0; k-- {
		rep = min(max(rep+delta, 0), maxReputation)
	}
	return rep
}

// topReputation returns the scan and query checksums of a top-reputation
// phase pair: every one of the q queries returns the same QueryLimit
// profiles, best reputation first, ties by ascending id.
func (m *model) topReputation(q int) (scan, query uint64) {
	type entry struct {
		rep int32
		id  int64
	}
	limit := m.cfg.QueryLimit
	better := func(a, b entry) bool { return a.rep > b.rep || (a.rep == b.rep && a.id < b.id) }
	// best is kept sorted; most ids lose against the worst kept entry with
	// one comparison.
	best := make([]entry, 0, limit+1)
	for id := int64(1); id <= m.cfg.Profiles; id++ {
		e := entry{m.reputationAt(id), id}
		if len(best) == limit && !better(e, best[limit-1]) {
			continue
		}
		i := sort.Search(len(best), func(j int) bool { return better(e, best[j]) })
		best = append(best, entry{})
		copy(best[i+1:], best[i:])
		best[i] = e
		if len(best) > limit {
			best = best[:limit]
		}
	}
	var scanWords, queryWords []uint64
	var p Profile
	for _, e := range best {
		scanWords = append(scanWords, uint64(e.id))
		m.profileAt(&p, e.id)
		queryWords = appendProfileWords(queryWords, &p)
	}
	scan = m.foldSlices(q, func(c *Checksum, _ int) { c.addWords(scanWords) })
	if m.skipQueries {
		return scan, 0
	}
	query = m.foldSlices(q, func(c *Checksum, _ int) { c.addWords(queryWords) })
	return scan, query
}

// update applies the update phase to the model state and returns its
// checksum. Updates go to worker id%Threads in plan order, as the reference
// buckets them; each id's updates stay in order within its bucket.
func (m *model) update() (uint64, error) {
	m.updates = make([]uint8, m.cfg.Profiles+1)
	parts := make([]WorkerChecksum, m.cfg.Threads)
	for w := range parts {
		parts[w].Sum = fnvOffset
	}
	var p Profile
	for _, id32 := range m.plan.Updates {
		id := int64(id32)
		if m.updates[id] == math.MaxUint8 {
			return 0, fmt.Errorf("profiles: model: id %d updated more than %d times", id, math.MaxUint8)
		}
		m.updates[id]++
		m.profileAt(&p, id)
		w := &parts[id%int64(len(parts))]
		c := Checksum{state: w.Sum}
		c.AddProfile(&p)
		w.Sum = c.Sum()
		w.Active = true
	}
	return MergeChecksums(parts), nil
}

// verify is the final checksum: the profile count, then profiles 1, N/2 (at
// least 1) and N as the reopened store holds them.
func (m *model) verify() uint64 {
	n := m.cfg.Profiles
	c := NewChecksum()
	c.AddInt64(n)
	var p Profile
	for _, id := range []int64{1, max(1, n/2), n} {
		m.profileAt(&p, id)
		c.AddProfile(&p)
	}
	return c.Sum()
}

// appendProfileWords appends the words AddProfile would fold for p (ASCII text
// only, which is all the generator produces).
func appendProfileWords(dst []uint64, p *Profile) []uint64 {
	dst = append(dst, uint64(p.UserID))
	for _, f := range [][]byte{p.Email, p.Country, p.Status} {
		for _, b := range f {
			dst = append(dst, uint64(b))
		}
	}
	return append(dst, uint64(p.CreatedAt), uint64(p.LastLogin), uint64(uint32(p.Reputation)))
}

// addWords folds a precomputed word list.
func (c *Checksum) addWords(words []uint64) {
	s := c.state
	for _, w := range words {
		s = (s ^ w) * fnvPrime
	}
	c.state = s
}

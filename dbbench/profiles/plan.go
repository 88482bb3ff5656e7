package profiles

import (
	"fmt"
	"math"
)

// createdAtSpan is how many ids past the start a created-at range reaches.
const createdAtSpan = 5_000

// Plan is the random part of the workload, drawn before any engine runs from
// one DotNetRandom(seed) in exactly this order (ZoneTree's WorkloadPlanner):
//
//  1. PointReads: N x NextInt64(1, N+1)
//  2. EmailReads: N x NextInt64(1, N+1)
//  3. CountryStatus: Q x (country Next(0,32), then status Next(0,4))
//  4. CreatedAtStarts: Q x NextInt64(1, max(2, N-5000))
//  5. Updates: N x NextInt64(1, N+1), with replacement
//  6. PostPointReads, 7. PostEmailReads: N each, as 1
//  8. PostCountryStatus: Q, as 3
//
// Ids are at most 2^31-1 (the reference's profile count is an int), so they
// are kept as int32: at N=100M the five id arrays take 2 GB rather than 4 GB.
// A country/status query is one byte, country*4+status. A created-at query
// keeps its start id; its bounds are createdAt(start) and
// createdAt(min(N, start+5000)), derived where used.
type Plan struct {
	Profiles          int64
	PointReads        []int32
	EmailReads        []int32
	CountryStatus     []uint8
	CreatedAtStarts   []int32
	Updates           []int32
	PostPointReads    []int32
	PostEmailReads    []int32
	PostCountryStatus []uint8
}

// DefaultQueries is the reference's query count for n profiles: n when
// n <= 10,000, otherwise max(1, n/4).
func DefaultQueries(n int64) int64 {
	if n <= 10_000 {
		return n
	}
	return max(1, n/4)
}

// NewPlan draws the plan for n profiles and q queries per query phase.
func NewPlan(n, q int64, seed int32) (*Plan, error) {
	if n < 1 || n > math.MaxInt32 {
		return nil, fmt.Errorf("profiles: profile count %d outside 1..%d", n, math.MaxInt32)
	}
	if q < 0 || q > math.MaxInt32 {
		return nil, fmt.Errorf("profiles: query count %d outside 0..%d", q, math.MaxInt32)
	}
	r := NewDotNetRandom(seed)
	p := &Plan{Profiles: n}
	p.PointReads = drawIDs(r, n, n)
	p.EmailReads = drawIDs(r, n, n)
	p.CountryStatus = drawCountryStatus(r, q)
	p.CreatedAtStarts = make([]int32, q)
	for i := range p.CreatedAtStarts {
		p.CreatedAtStarts[i] = int32(r.NextInt64Range(1, max(2, n-createdAtSpan)))
	}
	p.Updates = drawIDs(r, n, n)
	p.PostPointReads = drawIDs(r, n, n)
	p.PostEmailReads = drawIDs(r, n, n)
	p.PostCountryStatus = drawCountryStatus(r, q)
	return p, nil
}

// drawIDs draws count ids uniformly from 1..n.
func drawIDs(r *DotNetRandom, count, n int64) []int32 {
	ids := make([]int32, count)
	for i := range ids {
		ids[i] = int32(r.NextInt64Range(1, n+1))
	}
	return ids
}

// drawCountryStatus draws count country/status pairs packed as country*4+status.
func drawCountryStatus(r *DotNetRandom, count int64) []uint8 {
	qs := make([]uint8, count)
	for i := range qs {
		c := r.NextRange(0, int32(len(countryCodes)))
		s := r.NextRange(0, int32(len(statusValues)))
		qs[i] = uint8(c*4 + s)
	}
	return qs
}

// CreatedAtBounds returns the [from, to] creation-time bounds of a created-at
// query starting at id start.
func (p *Plan) CreatedAtBounds(g Generator, start int32) (from, to int64) {
	end := min(p.Profiles, int64(start)+createdAtSpan)
	return g.CreatedAt(int64(start)), g.CreatedAt(end)
}

package dbbench

import (
	"bytes"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/cxxrand"
)

// mixgraphConfig is mixgraph's workload model (db_bench's --mix_*,
// --sine_*, --keyrange_*, --key_dist_*, --value_* and --iter_* flags).
type mixgraphConfig struct {
	getRatio, putRatio, seekRatio float64
	maxScanLen                    int64
	maxValueSize                  int64
	sineMixRate                   bool
	sineMixRateIntervalMs         uint64
	sineMixRateNoise              float64
	sineA, sineB, sineC, sineD    float64
	keyrangeA, keyrangeB          float64
	keyrangeC, keyrangeD          float64
	keyrangeNum                   int64
	keyDistA, keyDistB            float64
	valueTheta, valueK, valueSig  float64
	iterTheta, iterK, iterSig     float64
}

// The query types of mixgraph, in the order of its ratio flags.
const (
	mixGet = iota
	mixPut
	mixSeek
)

// mixMaxValue bounds mixgraph's value sizes whatever --mix_max_value_size
// says (db_bench's default_value_max).
const mixMaxValue = 1 << 20

// benchMixGraph is db_bench's MixGraph: per operation one DB-selection draw
// and one key draw (ini_rand); u = (ini_rand mod num)/num decides, through
// the query decider, a Get, a Put or a Seek followed by a scan, and through
// Pareto distributions the Put's value size and the scan's length. The key
// is ini_rand itself when --key_dist_a or --key_dist_b is 0, a key range
// picked by the two-term-exponential hotness (--keyrange_dist_*) with an
// offset from a power-distribution seed when those are set, or the first
// draw of Random64(power-distribution seed) mod num otherwise. With
// --sine_mix_rate the read and write request rates follow
// sine_a*sin(sine_b*t+sine_c)+sine_d, recomputed every
// --sine_mix_rate_interval_milliseconds.
func benchMixGraph(r *runner, t *thread) error {
	m := &r.cfg.mix
	query, err := newMixQueryDecider(m.getRatio, m.putRatio, m.seekRatio)
	if err != nil {
		return err
	}
	valueMax := min(int64(mixMaxValue), m.maxValueSize)
	var keyRanges *mixKeyRanges
	if m.keyrangeA != 0 || m.keyrangeB != 0 || m.keyrangeC != 0 || m.keyrangeD != 0 {
		if keyRanges, err = newMixKeyRanges(r.cfg.num, m); err != nil {
			return err
		}
	}
	randomModeling := m.keyDistA == 0 || m.keyDistB == 0
	if m.sineMixRate {
		r.mixShareLimiters(t.shared)
	}
	lastSine := t.stats.start

	gen := newValueGen(&r.shape, r.valueData)
	key := r.keys.NewBuf()
	sink := &getSink{key: key, fold: r.foldReads}
	take := sink.take
	var seedRand cxxrand.MT64 // Random64(key_seed), re-seeded per key
	var gets, puts, seeks, getFound, seekFound, nbytes int64
	var totalScanLen, totalValueSize float64
	var sum uint64
	num := r.cfg.num
	d := r.newDuration(int64(r.cfg.duration), r.reads)
	for !d.done(1) {
		db, fams := r.selectDB(t)
		iniRand := r.randomKey(t)
		randV := iniRand % num
		u := float64(randV) / float64(num)
		var keyRand int64
		switch {
		case randomModeling:
			keyRand = iniRand
		case keyRanges != nil:
			keyRand = keyRanges.keyID(iniRand, m.keyDistA, m.keyDistB, &seedRand)
		default:
			seedRand.Seed(uint64(powerCdfInversion(u, m.keyDistA, m.keyDistB)))
			keyRand = int64(seedRand.Next()) % num
		}
		r.keys.Fill(key, keyRand)
		queryType := query.pick(randV)

		if m.sineMixRate {
			if now := time.Now(); now.Sub(lastSine).Microseconds() > int64(m.sineMixRateIntervalMs)*1000 {
				lastSine = now
				rate := r.mixSineRate(now.Sub(t.stats.start).Seconds())
				readRate := rate * (query.ratio[mixGet] + query.ratio[mixSeek])
				writeRate := rate * query.ratio[mixPut]
				if readRate > 0 {
					t.shared.readLimiter.setRate(float64(int64(readRate)))
				}
				if writeRate > 0 {
					t.shared.writeLimiter.setRate(float64(int64(writeRate)))
				}
			}
		}

		switch queryType {
		case mixGet:
			gets++
			getDB := db
			if fams != nil {
				getDB = fams.family(keyRand) // Puts and Seeks stay in the default family, as db_bench's do
			}
			ok, err := getDB.Get(key, take)
			if err != nil {
				return fmt.Errorf("Get returned an error: %v", err)
			}
			if ok {
				getFound++
				nbytes += int64(len(key) + sink.valueLen)
			}
			if lim := t.shared.readLimiter; lim != nil && (gets+seeks)%100 == 0 {
				lim.request(100)
			}
			t.stats.finishedOps(1, opRead)
		case mixPut:
			puts++
			size := paretoCdfInversion(u, m.valueTheta, m.valueK, m.valueSig)
			if size < 10 {
				size = 10
			} else if size > valueMax {
				size %= valueMax
			}
			totalValueSize += float64(size)
			if err := db.Put(key, gen.GenerateN(int(size)), &r.wo); err != nil {
				return fmt.Errorf("put error: %v", err)
			}
			if lim := t.shared.writeLimiter; lim != nil && puts%100 == 0 {
				lim.request(100)
			}
			t.stats.finishedOps(1, opWrite)
		case mixSeek:
			scanLen := paretoCdfInversion(u, m.iterTheta, m.iterK, m.iterSig) % m.maxScanLen
			n, found, b, s, err := seekScan(db, key, scanLen, r.foldReads)
			if err != nil {
				return err
			}
			seeks++
			if found {
				seekFound++
			}
			totalScanLen += float64(n)
			nbytes += b
			sum += s
			t.stats.finishedOps(1, opSeek)
		}
	}
	t.stats.reads += gets + seeks
	t.stats.found += getFound + seekFound
	t.stats.checksum += sink.checksum + sum
	t.stats.addBytes(nbytes)
	t.stats.addMessage(fmt.Sprintf("( Gets:%d Puts:%d Seek:%d, reads %d in %d found, avg size: %s value, %s scan)\n",
		gets, puts, seeks, getFound+seekFound, gets+seeks,
		cFixed1(totalValueSize/float64(puts)), cFixed1(totalScanLen/float64(seeks))))
	return nil
}

// setupMixGraph refuses, before the run, the flag values on which
// db_bench's MixGraph divides by zero (and dies of SIGFPE) or has no query
// type to pick: it prints why and ends the run with exit 1.
func setupMixGraph(r *runner, _ *benchSpec) error {
	if err := checkMixGraph(r); err != nil {
		r.out.Flush()
		r.errf("%s\n", err)
		return errExit{err.Error()}
	}
	return nil
}

func checkMixGraph(r *runner) error {
	m := &r.cfg.mix
	if _, err := newMixQueryDecider(m.getRatio, m.putRatio, m.seekRatio); err != nil {
		return err
	}
	if m.maxValueSize <= 0 {
		return fmt.Errorf("mixgraph: --mix_max_value_size=%d leaves no value size (db_bench divides by it)", m.maxValueSize)
	}
	if m.maxScanLen <= 0 {
		return fmt.Errorf("mixgraph: --mix_max_scan_len=%d leaves no scan length (db_bench divides by it)", m.maxScanLen)
	}
	if m.sineMixRate && m.sineMixRateNoise >= 0 && m.sineMixRateNoise <= 1 && int32(m.sineA) == 0 {
		return fmt.Errorf("mixgraph: --sine_a=%g makes the noise band int(sine_a) zero, which db_bench divides by", m.sineA)
	}
	if m.keyrangeA != 0 || m.keyrangeB != 0 || m.keyrangeC != 0 || m.keyrangeD != 0 {
		if _, err := newMixKeyRanges(r.cfg.num, m); err != nil {
			return err
		}
	}
	return nil
}

// seekScan is the Seek query of mixgraph and YCSB's scan: a new iterator,
// a Seek to key (found when it lands on key exactly), then up to scanLen
// entries, each counting its key and value bytes (and folded into the read
// checksum with fold).
func seekScan(db engine.DB, key []byte, scanLen int64, fold bool) (n int64, found bool, nbytes int64, sum uint64, err error) {
	it, err := db.NewIter(&engine.IterOptions{})
	if err != nil {
		return 0, false, 0, 0, fmt.Errorf("iterator error: %v", err)
	}
	defer it.Close()
	valid := it.SeekGE(key)
	found = valid && bytes.Equal(it.Key(), key)
	for ; n < scanLen && valid; n++ {
		k := it.Key()
		v, err := it.Value()
		if err != nil {
			return n, found, nbytes, sum, fmt.Errorf("iterator value error: %v", err)
		}
		nbytes += int64(len(k) + len(v))
		if fold {
			sum += foldKV(k, v)
		}
		valid = it.Next()
	}
	if err := it.Error(); err != nil {
		return n, found, nbytes, sum, fmt.Errorf("iterator error: %v", err)
	}
	return n, found, nbytes, sum, nil
}

// mixShareLimiters gives the run's threads the request-rate limiters of
// --sine_mix_rate, 1,000,000 requests a second until the first sine
// update, in place of --benchmark_{read,write}_rate_limit's (db_bench's
// MixGraph replaces the shared limiters). The first thread to call it
// makes them; the others wait for that.
func (r *runner) mixShareLimiters(s *sharedState) {
	s.mixOnce.Do(func() {
		s.readLimiter = newRateLimiter(1000000)
		s.writeLimiter = newRateLimiter(1000000)
	})
}

// mixSineRate is db_bench's SineRate at x seconds with AddNoise: the noise
// is (rand() % int(sine_a) - int(sine_a)/2) * --sine_mix_rate_noise, from
// the process's rand(), and a rate the noise would make negative keeps its
// value.
func (r *runner) mixSineRate(x float64) float64 {
	m := &r.cfg.mix
	rate := m.sineRate(x)
	if m.sineMixRateNoise < 0 || m.sineMixRateNoise > 1 {
		return rate
	}
	band := int32(m.sineA) // not 0: setupMixGraph refused that
	delta := float64(r.libcRand()%band-band/2) * m.sineMixRateNoise
	if rate+delta < 0 {
		return rate
	}
	return rate + delta
}

// sineRate is db_bench's SineRate: sine_a*sin(sine_b*x+sine_c)+sine_d.
func (m *mixgraphConfig) sineRate(x float64) float64 {
	return m.sineA*math.Sin(m.sineB*x+m.sineC) + m.sineD
}

// libcRandState is the process's rand(), as db_bench calls it.
var libcRandState struct {
	sync.Mutex
	r *cxxrand.LibcRand
}

func (r *runner) libcRand() int32 {
	libcRandState.Lock()
	defer libcRandState.Unlock()
	if libcRandState.r == nil {
		libcRandState.r = cxxrand.NewLibcRand(1)
	}
	return libcRandState.r.Next()
}

// mixQueryDecider is db_bench's QueryDecider: each ratio, normalised,
// gets ceil(1000*share) slots of a range, and a draw mod the range picks
// the type whose slots hold it.
type mixQueryDecider struct {
	upTo  [3]int     // the cumulative slot counts
	ratio [3]float64 // the normalised ratios
}

func newMixQueryDecider(get, put, seek float64) (*mixQueryDecider, error) {
	ratios := [3]float64{get, put, seek}
	sum := get + put + seek
	if !(sum > 0) || get < 0 || put < 0 || seek < 0 {
		return nil, fmt.Errorf("mixgraph: --mix_get_ratio=%g --mix_put_ratio=%g --mix_seek_ratio=%g: the ratios must be non-negative with a positive sum", get, put, seek)
	}
	q := &mixQueryDecider{}
	total := 0
	for i, ratio := range ratios {
		total += int(math.Ceil(1000 * (ratio / sum)))
		q.upTo[i] = total
		q.ratio[i] = ratio / sum
	}
	return q, nil
}

func (q *mixQueryDecider) pick(v int64) int {
	if v < 0 {
		v = -v
	}
	pos := int(v % int64(q.upTo[2]))
	for i, upTo := range q.upTo {
		if pos < upTo {
			return i
		}
	}
	return mixGet
}

// mixKeyRanges is db_bench's GenerateTwoTermExpKeys: --keyrange_num ranges
// of num/keyrange_num keys, each given a share of [0, randMax) in
// proportion to a*exp(b*x)+c*exp(d*x), shuffled by Random64(randMax).
type mixKeyRanges struct {
	starts []int64 // each range's first slot, ascending after the shuffle
	slots  int64   // the slots of all ranges (keyrange_rand_max_)
	size   int64   // keys per range
}

func newMixKeyRanges(num int64, m *mixgraphConfig) (*mixKeyRanges, error) {
	count := max(m.keyrangeNum, 1)
	k := &mixKeyRanges{size: num / count}
	if k.size == 0 {
		return nil, fmt.Errorf("mixgraph: --keyrange_num=%d exceeds --num=%d", m.keyrangeNum, num)
	}
	access := make([]int64, 0, count)
	var amplify, total int64
	for x := count; x >= 1; x-- {
		p := m.keyrangeA*math.Exp(m.keyrangeB*float64(x)) + m.keyrangeC*math.Exp(m.keyrangeD*float64(x))
		if p < 1e-16 {
			p = 0
		}
		if amplify == 0 && p > 0 {
			amplify = cInt64(math.Floor(1/p)) + 1
		}
		var a int64
		if p > 0 {
			a = cInt64(math.Floor(float64(amplify) * p))
		}
		access = append(access, a)
		total += a
	}
	if total <= 0 {
		return nil, fmt.Errorf("mixgraph: --keyrange_dist_a/b/c/d give every key range zero probability")
	}
	shuffle := cxxrand.NewMT64(uint64(total))
	for i := int64(0); i < m.keyrangeNum; i++ {
		pos := shuffle.Next() % uint64(m.keyrangeNum)
		access[i], access[pos] = access[pos], access[i]
	}
	k.slots = total
	k.starts = make([]int64, len(access))
	var offset int64
	for i, a := range access {
		k.starts[i] = offset
		offset += a
	}
	return k, nil
}

// keyID is DistGetKeyID for power-distributed offsets (keyA, keyB not 0):
// the range holding ini_rand mod the slot total, and in it the offset
// Random64(ceil(pow(u/a, 1/b))) draws, u being ini_rand's place in a range.
func (k *mixKeyRanges) keyID(iniRand int64, keyA, keyB float64, seedRand *cxxrand.MT64) int64 {
	slot := iniRand % k.slots
	lo, hi := 0, len(k.starts)
	for lo+1 < hi {
		mid := lo + (hi-lo)/2
		if slot < k.starts[mid] {
			hi = mid
		} else {
			lo = mid
		}
	}
	u := float64(iniRand%k.size) / float64(k.size)
	seedRand.Seed(uint64(cInt64(math.Ceil(math.Pow(u/keyA, 1/keyB)))))
	offset := int64(seedRand.Next() % uint64(k.size))
	return k.size*int64(lo) + offset
}

// paretoCdfInversion is db_bench's ParetoCdfInversion: the inverse CDF of
// a generalised Pareto distribution at u, rounded up.
func paretoCdfInversion(u, theta, k, sigma float64) int64 {
	var v float64
	if k == 0 {
		v = theta - sigma*math.Log(u)
	} else {
		v = theta + sigma*(math.Pow(u, -k)-1)/k
	}
	return cInt64(math.Ceil(v))
}

// powerCdfInversion is db_bench's PowerCdfInversion: the inverse of
// y = a*x^b at u, rounded up.
func powerCdfInversion(u, a, b float64) int64 {
	return cInt64(math.Ceil(math.Pow(u/a, 1/b)))
}

// cInt64 converts as static_cast<int64_t> does on x86-64: a value out of
// range, infinite or NaN becomes the minimum int64 (the instruction's
// "integer indefinite"), where Go leaves the result unspecified.
func cInt64(f float64) int64 {
	if f != f || f >= 1<<63 || f < -(1<<63) {
		return math.MinInt64
	}
	return int64(f)
}

// cFixed1 formats as printf's "%.1f" in glibc: a 0/0 NaN, which x86
// produces with the sign bit set, prints "-nan", infinities "inf"/"-inf".
func cFixed1(f float64) string {
	switch {
	case math.IsNaN(f):
		return "-nan" // the only NaN here is a 0/0 average
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.1f", f)
}

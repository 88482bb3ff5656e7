package dbbench

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/godbbench/godbbench/engine"
)

// columnFamilies is db_bench's DBWithColumnFamilies for
// --num_column_families > 1: which family each operation of the
// benchmarks that spread over families (doWrite's fills, readrandom,
// mergerandom) goes to, chosen from the random number the operation's key
// is made from, so that a key is read from the family it was written to.
// Only numHot families take operations at a time: the last numHot
// created. doWrite creates the next numHot at each stage of its run
// (--num_hot_column_families below --num_column_families), so the hot set
// moves on through the families as the fill goes.
type columnFamilies struct {
	db      engine.ColumnFamilies
	total   int64 // --num_column_families
	numHot  int64
	created atomic.Int64 // families created so far: 0 to created-1
	create  sync.Mutex   // held by enterStage, as db_bench's create_cf_mutex
	// probs, from --column_family_distribution, are the percentages of
	// operations going to each of the numHot hot families; nil spreads
	// them evenly (rand % numHot).
	probs []int
}

// newColumnFamilies returns the routing of db's families, nil when the run
// has one family; an engine without families is an error naming it.
func (r *runner) newColumnFamilies(db engine.DB) (*columnFamilies, error) {
	if r.opts.NumColumnFamilies <= 1 {
		return nil, nil
	}
	cf, ok := db.(engine.ColumnFamilies)
	if !ok {
		return nil, fmt.Errorf("Not implemented: engine %s has no column families (--num_column_families)", r.opener.Info().Name)
	}
	hot := r.opts.HotColumnFamilies()
	probs, err := parseFamilyDistribution(r.cfg.columnFamilyDistribution, hot)
	if err != nil {
		return nil, err
	}
	c := &columnFamilies{db: cf, total: int64(r.opts.NumColumnFamilies), numHot: int64(hot), probs: probs}
	c.created.Store(int64(hot))
	return c, nil
}

// parseFamilyDistribution reads --column_family_distribution, a
// comma-separated list of numHot percentages summing to 100, with
// db_bench's messages for lists that are not.
func parseFamilyDistribution(s string, numHot int) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var probs []int
	sum := 0
	for _, item := range strings.Split(s, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil {
			return nil, fmt.Errorf("column_family_distribution: %q is not a number", item)
		}
		probs = append(probs, p)
		sum += p
	}
	if sum != 100 {
		return nil, fmt.Errorf("column_family_distribution items must sum to 100")
	}
	if len(probs) != numHot {
		return nil, fmt.Errorf("got %d column_family_distribution items; expected %d", len(probs), numHot)
	}
	return probs, nil
}

// pick is db_bench's GetCfh: the family of the operation whose key is made
// from randNum, among the hot ones.
func (c *columnFamilies) pick(randNum int64) int {
	var offset int64
	if c.probs != nil {
		sum := 0
		for offset < int64(len(c.probs))-1 && int64(sum+c.probs[offset]) < randNum%100 {
			sum += c.probs[offset]
			offset++
		}
	} else {
		offset = int64(uint64(randNum) % uint64(c.numHot))
	}
	return int(c.created.Load() - c.numHot + offset)
}

// family returns the family pick chooses, as an engine.DB.
func (c *columnFamilies) family(randNum int64) engine.DB {
	return c.db.ColumnFamily(c.pick(randNum))
}

// opsPerStage is the number of doWrite's operations (of maxOps) between
// two creations of hot families; maxOps when the families are all hot.
func (c *columnFamilies) opsPerStage(maxOps int64) int64 {
	if c == nil || c.numHot >= c.total {
		return maxOps
	}
	return (maxOps-1)/(c.total/c.numHot) + 1
}

// enterStage is db_bench's CreateNewCf: at doWrite's stage (counted from
// 0) the families up to (stage+1)*numHot exist, the last numHot of them
// hot; it creates those missing.
func (c *columnFamilies) enterStage(stage int64) error {
	c.create.Lock()
	defer c.create.Unlock()
	created := c.created.Load()
	if (stage+1)*c.numHot <= created {
		return nil
	}
	next := min(created+c.numHot, c.total)
	for i := created; i < next; i++ {
		if _, err := c.db.CreateColumnFamily(int(i)); err != nil {
			return fmt.Errorf("create column family error: %v", err)
		}
	}
	c.created.Store(next)
	return nil
}

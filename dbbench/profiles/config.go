package profiles

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/godbbench/godbbench/engine"
)

// DefaultSeed and DefaultQueryLimit are the reference's defaults (its
// published runs pass a query limit of 100).
const (
	DefaultSeed       int32 = 570123434
	DefaultQueryLimit int   = 50
)

// Config describes one run of the workload.
type Config struct {
	// Profiles is N, the number of profiles (1..2^31-1).
	Profiles int64
	// Queries is the count of every query phase; <= 0 means the reference
	// rule, DefaultQueries(Profiles).
	Queries int64
	// QueryLimit caps the items of one scan or query; <= 0 means 50.
	QueryLimit int
	// Seed seeds both the generator and the plan.
	Seed int32
	// Threads is the number of workers (the reference's parallelism); <= 0
	// means 1. With more than one, each worker takes a contiguous slice of
	// every phase (updates: the ids with id%Threads == worker) and the phase
	// checksum merges the worker checksums, so it depends on Threads.
	Threads int
	// Dir holds the five stores, one sub-directory each.
	Dir string
	// Open opens (creating if missing) the store in path.
	Open func(path string) (engine.DB, error)
	// Destroy deletes the store in path (a missing one is no error); Run
	// calls it for each store before opening them, as the reference starts
	// from empty stores. Nil leaves existing stores as they are.
	Destroy func(path string) error
	// Stabilize brings one store to a steady state before measured reads
	// (flush and wait for compactions, optionally a full compaction). Nil
	// means Flush then WaitForCompactions.
	Stabilize func(db engine.DB) error
	// Out receives the result lines; nil means io.Discard.
	Out io.Writer
}

// normalize applies defaults and checks the counts.
func (c Config) normalize() (Config, error) {
	if c.Profiles < 1 || c.Profiles > math.MaxInt32 {
		return c, fmt.Errorf("profiles: Profiles %d outside 1..%d", c.Profiles, math.MaxInt32)
	}
	if c.Queries <= 0 {
		c.Queries = DefaultQueries(c.Profiles)
	}
	if c.Queries > math.MaxInt32 {
		return c, fmt.Errorf("profiles: Queries %d above %d", c.Queries, math.MaxInt32)
	}
	if c.QueryLimit <= 0 {
		c.QueryLimit = DefaultQueryLimit
	}
	if c.Threads <= 0 {
		c.Threads = 1
	}
	if c.Out == nil {
		c.Out = io.Discard
	}
	if c.Stabilize == nil {
		c.Stabilize = flushAndWait
	}
	return c, nil
}

// validateForRun checks what Run needs beyond what Model needs.
func (c Config) validateForRun() error {
	if c.Dir == "" {
		return errors.New("profiles: Config.Dir is empty")
	}
	if c.Open == nil {
		return errors.New("profiles: Config.Open is nil")
	}
	return nil
}

// flushAndWait is the default Stabilize.
func flushAndWait(db engine.DB) error {
	if err := db.Flush(); err != nil {
		return err
	}
	return db.WaitForCompactions()
}

package dbbench

import (
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// createdFamilies is an engine.ColumnFamilies that records the families
// created; its families are nil DBs, which pick's tests never use.
type createdFamilies struct{ created []int }

func (c *createdFamilies) ColumnFamily(i int) engine.DB { return nil }

func (c *createdFamilies) CreateColumnFamily(i int) (engine.DB, error) {
	c.created = append(c.created, i)
	return nil, nil
}

func TestColumnFamilyPickEven(t *testing.T) {
	c := &columnFamilies{db: &createdFamilies{}, total: 4, numHot: 4}
	c.created.Store(4)
	for rand, want := range []int{0, 1, 2, 3, 0, 1} {
		if got := c.pick(int64(rand)); got != want {
			t.Errorf("pick(%d) = %d, want %d", rand, got, want)
		}
	}
}

// TestColumnFamilyPickDistribution: with 20,30,50 the numbers 0-20 mod 100
// go to family 0 (db_bench's loop moves on only while the running sum
// stays below rand % 100), 21-50 to family 1, the rest to family 2.
func TestColumnFamilyPickDistribution(t *testing.T) {
	probs, err := parseFamilyDistribution("20,30,50", 3)
	if err != nil {
		t.Fatal(err)
	}
	c := &columnFamilies{db: &createdFamilies{}, total: 3, numHot: 3, probs: probs}
	c.created.Store(3)
	for _, tc := range []struct {
		rand int64
		want int
	}{{0, 0}, {20, 0}, {21, 1}, {50, 1}, {51, 2}, {99, 2}, {120, 0}, {151, 2}} {
		if got := c.pick(tc.rand); got != tc.want {
			t.Errorf("pick(%d) = %d, want %d", tc.rand, got, tc.want)
		}
	}
}

func TestColumnFamilyDistributionErrors(t *testing.T) {
	for _, tc := range []struct{ list, want string }{
		{"20,30", "column_family_distribution items must sum to 100"},
		{"50,50", "got 2 column_family_distribution items; expected 3"},
	} {
		if _, err := parseFamilyDistribution(tc.list, 3); err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.list, err, tc.want)
		}
	}
}

// TestColumnFamilyStages: 6 families 2 hot at a time over 30 operations
// make 3 stages of 10; each stage creates the next 2 families, which then
// take the operations.
func TestColumnFamilyStages(t *testing.T) {
	rec := &createdFamilies{}
	c := &columnFamilies{db: rec, total: 6, numHot: 2}
	c.created.Store(2)
	if got := c.opsPerStage(30); got != 10 {
		t.Fatalf("opsPerStage(30) = %d, want 10", got)
	}
	if got := c.pick(3); got != 1 {
		t.Errorf("stage 0: pick(3) = %d, want 1", got)
	}
	for stage := int64(1); stage <= 2; stage++ {
		if err := c.enterStage(stage); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.enterStage(2); err != nil { // again: nothing to create
		t.Fatal(err)
	}
	if want := []int{2, 3, 4, 5}; len(rec.created) != len(want) || rec.created[0] != 2 || rec.created[3] != 5 {
		t.Errorf("created %v, want %v", rec.created, want)
	}
	if got := c.pick(3); got != 5 {
		t.Errorf("stage 2: pick(3) = %d, want 5", got)
	}
}

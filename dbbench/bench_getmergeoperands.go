package dbbench

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/godbbench/godbbench/engine"
)

// getMergeOperandsOut keeps the blocks that concurrent getmergeoperands
// threads print apart on stdout.
var getMergeOperandsOut sync.Mutex

// The shape of db_bench's getmergeoperands data: the numbers 1 to
// gmoTotalValues-1 in sorted lists of gmoListSize-1 numbers, one Merge each.
const (
	gmoTotalValues = 100000
	gmoListSize    = 100
	gmoLookup      = 1 // the number both lookups search for
)

// benchGetMergeOperands is db_bench's GetMergeOperands (getmergeoperands):
// it merges 999 comma-separated sorted lists into the key "my_key"
// (ignoring each Merge's status, as db_bench does), then times a Get and a
// search of the merged list against a GetMergeOperands and a search of
// each operand list, printing db_bench's lines on stdout. The lists are
// numbers only with --merge_operator=sortlist; with any other operator, or
// none, db_bench dies parsing them (an uncaught std::stoi exception), where
// this says so and exits 1. It counts no operations.
func benchGetMergeOperands(r *runner, t *thread) error {
	db, _ := r.selectDB(t)
	key := []byte("my_key")
	wo := &engine.WriteOptions{} // db_bench merges with default WriteOptions
	var value []byte
	var mergeErr error // db_bench goes on; a failed Get says it
	for i := 1; i < gmoTotalValues; i++ {
		if i%gmoListSize == 0 {
			if err := db.Merge(key, value[:len(value)-1], wo); err != nil && mergeErr == nil {
				mergeErr = err
			}
			value = value[:0]
		} else {
			value = strconv.AppendInt(value, int64(i), 10)
			value = append(value, ',')
		}
	}

	var b strings.Builder
	b.WriteString("--- Get API call --- \n")
	start := time.Now()
	var list []int
	var sample string
	var parseErr error
	found, err := db.Get(key, func(v []byte) {
		list, parseErr = parseSortList(list[:0], v)
		sample = string(v[:min(len(v), 10)])
	})
	if err == nil && !found {
		err = errors.New("NotFound")
		if mergeErr != nil {
			err = fmt.Errorf("NotFound; its Merges failed: %v", mergeErr)
		}
	}
	if err == nil {
		err = parseErr
	}
	if err != nil {
		return fmt.Errorf("getmergeoperands: Get of my_key gave no sorted list (%v); db_bench aborts here: this benchmark needs --merge_operator=sortlist", err)
	}
	hit := searchSorted(list, gmoLookup)
	elapsed := time.Since(start)
	fmt.Fprintf(&b, "Found key? %d\n", boolDigit(hit))
	fmt.Fprintf(&b, "Get: %s seconds\n", cxxDouble(elapsed.Seconds()))
	fmt.Fprintf(&b, "Sample data from Get API call: %s\n", sample)

	b.WriteString("--- GetMergeOperands API --- \n")
	start = time.Now()
	// Each operand is searched as it arrives, until one holds the number,
	// as db_bench searches its operand slices in turn; only the first four
	// are kept, for the sample lines.
	var samples [4][]byte
	var count, total int
	hit = false
	parseErr = nil
	if _, err := db.GetMergeOperands(key, func(v []byte) {
		if count < len(samples) {
			samples[count] = append([]byte(nil), v...)
		}
		count++
		total += len(v)
		if hit || parseErr != nil {
			return
		}
		if list, parseErr = parseSortList(list[:0], v); parseErr == nil {
			hit = searchSorted(list, gmoLookup)
		}
	}); err != nil {
		return fmt.Errorf("getmergeoperands: GetMergeOperands: %v", err)
	}
	if parseErr != nil {
		return fmt.Errorf("getmergeoperands: an operand of my_key is no sorted list (%v); db_bench aborts here: this benchmark needs --merge_operator=sortlist", parseErr)
	}
	elapsed = time.Since(start)
	fmt.Fprintf(&b, "Found key? %d\n", boolDigit(hit))
	fmt.Fprintf(&b, "Get Merge operands: %s seconds \n", cxxDouble(elapsed.Seconds()))
	b.WriteString("Sample data from GetMergeOperands API call: ")
	// db_bench prints each operand's PinnableSlice::GetSelf(), which is
	// empty when RocksDB pinned the operands in place instead of copying
	// them (DBImpl::ShouldReferenceSuperVersion: at least 32 KiB in all,
	// 256 bytes a piece on average), and for the slots past the last one.
	pinned := total >= 32768 && total>>8 >= count
	for i, sample := range samples {
		self := ""
		if i < count && !pinned {
			self = string(sample)
		}
		fmt.Fprintf(&b, "List: %d : %s\n", i, self)
	}
	getMergeOperandsOut.Lock()
	r.outf("%s", b.String())
	getMergeOperandsOut.Unlock()
	return nil
}

// parseSortList appends the numbers of a comma-separated list (RocksDB's
// SortList::MakeVector) to dst.
func parseSortList(dst []int, v []byte) ([]int, error) {
	for _, f := range strings.Split(string(v), ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return dst, fmt.Errorf("%q is not a number", f)
		}
		dst = append(dst, n)
	}
	return dst, nil
}

// searchSorted reports whether n is in the ascending list.
func searchSorted(list []int, n int) bool {
	i := sort.SearchInts(list, n)
	return i < len(list) && list[i] == n
}

// boolDigit is std::to_string of a bool: "1" or "0".
func boolDigit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cxxDouble formats x as a C++ ostream does by default (%g, 6 digits).
func cxxDouble(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

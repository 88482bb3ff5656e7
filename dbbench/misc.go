package dbbench

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"syscall"

	"github.com/godbbench/godbbench/options"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// expRangeKey is GetRandomKey's --read_random_exp_range mapping: u = (draw
// mod 2^62)/2^62, floor(exp(-u*R)*num) multiplied by 0x5bd1e995 (mod 2^64),
// then mod num. db_bench computes in long double; float64 agrees except in
// rare last-bit cases.
func expRangeKey(draw uint64, expRange float64, num int64) int64 {
	const bigInt = uint64(1) << 62
	order := -float64(draw%bigInt) / float64(bigInt) * expRange
	randNum := uint64(int64(math.Exp(order) * float64(num)))
	const bigPrime = 0x5bd1e995
	return int64((randNum * bigPrime) % uint64(num))
}

// applyOptionsFile loads --options_file into o; unmapped lists the known
// options of the file that no Options field takes (kept in o.Extra).
func applyOptionsFile(o *options.Options, path string) (unmapped []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("Unable to load options file %s --- %s", path, ioErrorText("While opening a file for sequentially reading", path, err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("Unable to load options file %s --- %s", path, ioErrorText("While reading file sequentially", path, syscall.EISDIR))
	}
	of, err := options.ParseOptionsFile(f, path)
	if err == nil {
		unmapped, err = of.ApplyStrict(o)
	}
	if err != nil {
		return nil, fmt.Errorf("Unable to load options file %s --- %v", path, err)
	}
	o.OptionsFile = path
	return unmapped, nil
}

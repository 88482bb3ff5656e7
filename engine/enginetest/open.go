package enginetest

import (
	"bytes"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// OpenWith returns the open function the suites take, for engine op with
// options o: it fails the test on an open error and logs the engine's
// option warnings.
func OpenWith(t testing.TB, op engine.Opener, o *options.Options) func(dir string) engine.DB {
	return func(dir string) engine.DB {
		t.Helper()
		var warn bytes.Buffer
		db, err := op.Open(dir, o, &warn)
		if err != nil {
			t.Fatalf("open %s: %v", dir, err)
		}
		if warn.Len() > 0 {
			t.Logf("warnings: %s", warn.String())
		}
		return db
	}
}

// MergeOpenWith is OpenWith for RunMerge: each open uses a copy of o with
// the merge operator RunMerge asks for.
func MergeOpenWith(t testing.TB, op engine.Opener, o *options.Options) MergeOpenFunc {
	return func(dir, mergeOperator string) engine.DB {
		t.Helper()
		c := *o
		c.MergeOperator = mergeOperator
		return OpenWith(t, op, &c)(dir)
	}
}

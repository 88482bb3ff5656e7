//go:build invariants || race

package invariants_test

import (
	"testing"

	"github.com/godbbench/godbbench/internal/invariants"
)

func TestEnabledUnderTheTag(t *testing.T) {
	if !invariants.Enabled {
		t.Fatal("Enabled is false in a build with the invariants tag or the race detector")
	}
}

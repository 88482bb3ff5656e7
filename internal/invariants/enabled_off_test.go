//go:build !(invariants || race)

package invariants_test

import (
	"testing"

	"github.com/godbbench/godbbench/internal/invariants"
)

func TestDisabledByDefault(t *testing.T) {
	if invariants.Enabled {
		t.Fatal("Enabled is true in an ordinary build")
	}
}

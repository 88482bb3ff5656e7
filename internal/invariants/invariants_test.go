package invariants_test

import (
	"testing"

	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/internal/invariants/invariantstest"
)

func TestViolatedPanicsWithTheRule(t *testing.T) {
	invariantstest.Fires(t, "rule 7", func() { invariants.Violated("rule %d", 7) })
}

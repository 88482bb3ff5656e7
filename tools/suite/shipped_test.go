package suite

import (
	"path/filepath"
	"testing"
)

// Every suite shipped under testdata/suites parses.
func TestShippedSuitesParse(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/suites/*.yaml")
	if len(files) < 3 {
		t.Fatalf("found %d shipped suites", len(files))
	}
	for _, f := range files {
		if _, err := Load(f); err != nil {
			t.Error(err)
		}
	}
}

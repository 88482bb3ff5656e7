package buildinfo

import (
	"os"
	"strings"
	"testing"
)

// TestVersionMatchesFile keeps Version and the repository's VERSION file,
// which the changelog's entries are named after, the same.
func TestVersionMatchesFile(t *testing.T) {
	b, err := os.ReadFile("../../VERSION")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(b)); got != Version {
		t.Fatalf("VERSION says %q, buildinfo.Version %q", got, Version)
	}
	changelog, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(changelog), "## "+Version) {
		t.Fatalf("CHANGELOG.md has no section for %s", Version)
	}
}

func TestDescribeNamesVersion(t *testing.T) {
	d := Describe()
	if !strings.HasPrefix(d, Version+" (commit ") || !strings.HasSuffix(d, ")") {
		t.Fatalf("Describe() = %q", d)
	}
}

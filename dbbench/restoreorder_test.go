package dbbench

import (
	"fmt"
	"testing"
)

// TestRestoreOrderPointersLast: a restore copies CURRENT and Pebble's
// marker files after every other file, so one stopped part-way never
// leaves a pointer to a MANIFEST it has not copied whole; the meta lists
// files by name, CURRENT before MANIFEST-.
func TestRestoreOrderPointersLast(t *testing.T) {
	files := []backupFile{{name: "000007.sst"}, {name: "CURRENT"}, {name: "MANIFEST-000005"},
		{name: "OPTIONS-000009"}, {name: "marker.manifest.000002.MANIFEST-000005"}, {name: "000008.log"}}
	var got []string
	for _, f := range restoreOrder(files) {
		got = append(got, f.name)
	}
	want := "[000007.sst MANIFEST-000005 OPTIONS-000009 000008.log CURRENT marker.manifest.000002.MANIFEST-000005]"
	if fmt.Sprint(got) != want {
		t.Fatalf("restore order %v, want %s", got, want)
	}
}

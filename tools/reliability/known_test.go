package reliability

import (
	"strings"
	"testing"
)

// knownFailures names the subtests that still fail on the engines as they
// are, with the part of issue 14 that fixes them. Such a subtest skips,
// printing its failures, instead of failing; every other subtest is
// strict. Remove an entry when its fix lands.
var knownFailures = map[string]string{
	// RocksDB 7.8.3's own behaviour (go test -tags rocksdb), recorded in
	// docs/RELIABILITY.md: nothing in this project can fix it.
	"TestCorruptionMatrix/rocksdb/no_sync/MANIFEST": "RocksDB 7.8.3: a MANIFEST cut at a record boundary opens the older version and deletes the tables it does not name",
	"TestCorruptionMatrix/rocksdb/no_sync/table":    "RocksDB 7.8.3: a forward scan skips a level-0 table's first data block when its checksum fails",
	"TestENOSPC/rocksdb/sync":                       "RocksDB 7.8.3 as Debian builds it (assertions on) sometimes aborts on ENOSPC",
}

// report fails t with the failures, or skips it when t is a known failure.
func report(t *testing.T, failures []string) {
	t.Helper()
	if len(failures) == 0 {
		return
	}
	if why, ok := knownFailures[t.Name()]; ok {
		t.Skipf("KNOWN FAILURE (%s): %d failures:\n%s", why, len(failures), strings.Join(failures, "\n"))
	}
	for _, f := range failures {
		t.Error(f)
	}
}

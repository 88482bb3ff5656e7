//go:build !rocksdb

package rocksdb

import (
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

func TestMissingEngineExplainsBuildTag(t *testing.T) {
	_, err := engine.Lookup("rocksdb")
	if err == nil || !strings.Contains(err.Error(), "rebuild with -tags rocksdb") {
		t.Fatalf("Lookup(rocksdb) error %v", err)
	}
}

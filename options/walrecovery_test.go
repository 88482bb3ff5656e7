package options

import (
	"strings"
	"testing"
)

// TestWALRecoveryModeOption: the OPTIONS key takes RocksDB's four names,
// kPointInTimeRecovery by default, and refuses others.
func TestWALRecoveryModeOption(t *testing.T) {
	if m := Default().WALRecoveryMode; m != WALPointInTimeRecovery {
		t.Fatalf("default mode %d", m)
	}
	for name, want := range map[string]int{
		"kTolerateCorruptedTailRecords": 0, "kAbsoluteConsistency": 1,
		"kPointInTimeRecovery": 2, "kSkipAnyCorruptedRecords": 3,
	} {
		f, err := ParseOptionsFile(strings.NewReader("[DBOptions]\n  wal_recovery_mode="+name+"\n[CFOptions \"default\"]\n"), "mem")
		if err != nil {
			t.Fatal(err)
		}
		o := Default()
		if _, err := f.ApplyStrict(o); err != nil || o.WALRecoveryMode != want {
			t.Errorf("%s: mode %d, %v; want %d", name, o.WALRecoveryMode, err, want)
		}
	}
	f, err := ParseOptionsFile(strings.NewReader("[DBOptions]\n  wal_recovery_mode=kSometimes\n[CFOptions \"default\"]\n"), "mem")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.ApplyStrict(Default()); err == nil || !strings.Contains(err.Error(), "wal_recovery_mode") {
		t.Errorf("unknown mode: %v", err)
	}
}

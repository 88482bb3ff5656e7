package dbbench_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// listTree lists every path under dir, for before-and-after
// comparisons.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestBackupRestoreReadsBackEqual: on every engine, a filled DB backed up
// (rate-limited) and restored into another directory opens there holding
// exactly the DB's contents (verify against the DB), and a second backup
// replaces the first.
func TestBackupRestoreReadsBackEqual(t *testing.T) {
	for _, eng := range oracleEngines() {
		dir := t.TempDir()
		db, backups, restored := filepath.Join(dir, "db"), filepath.Join(dir, "backups"), filepath.Join(dir, "restored")
		common := []string{"--engine=" + eng, "--num=2000", "--seed=5", "--backup_dir=" + backups, "--restore_dir=" + restored}
		code, stdout, stderr := runMain(t, append(common, "--db="+db, "--benchmarks=fillrandom,backup,overwrite,backup,restore",
			"--backup_rate_limit=100000000", "--restore_rate_limit=100000000")...)
		if code != 0 {
			t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", eng, code, stdout, stderr)
		}
		for _, want := range []string{"Backup path: [" + backups + "]\nbackup ", "Backup path: [" + backups + "]\nRestore path: [" + restored + "]\nrestore "} {
			if !strings.Contains(stdout, want) {
				t.Fatalf("%s: stdout lacks %q:\n%s", eng, want, stdout)
			}
		}
		code, stdout, stderr = runMain(t, "--engine="+eng, "--db="+restored, "--use_existing_db", "--benchmarks=verify", "--truth_db="+db)
		if code != 0 {
			t.Fatalf("%s: the restored DB does not verify against the DB: exit %d\n%s\n%s", eng, code, stdout, stderr)
		}
	}
}

// TestRestoreOfCorruptBackup: a backup file with one byte changed makes
// restore exit 1 naming the file, with nothing written into the restore
// directory and nothing deleted anywhere; a restore into a directory
// holding a DB is refused the same way.
func TestRestoreOfCorruptBackup(t *testing.T) {
	for _, eng := range oracleEngines() {
		dir := t.TempDir()
		db, backups, restored := filepath.Join(dir, "db"), filepath.Join(dir, "backups"), filepath.Join(dir, "restored")
		common := []string{"--engine=" + eng, "--num=500", "--backup_dir=" + backups, "--restore_dir=" + restored}
		if code, _, stderr := runMain(t, append(common, "--db="+db, "--benchmarks=fillrandom,backup")...); code != 0 {
			t.Fatalf("%s: %s", eng, stderr)
		}
		// The DB's own files change as it opens; the backup and restore
		// directories must not.
		snapshot := func() string {
			return strings.Join(append(listTree(t, backups), listTree(t, restored)...), "\n")
		}
		if err := os.MkdirAll(restored, 0o755); err != nil {
			t.Fatal(err)
		}
		if eng != "rocksdb" { // RocksDB's BackupEngine has checks of its own
			restoreDamaged(t, eng, append(common, "--db="+db, "--use_existing_db", "--benchmarks=restore"), backups, snapshot)
		}
		// A fresh backup, then a restore into a directory holding a DB.
		if code, _, stderr := runMain(t, append(common, "--db="+db, "--use_existing_db", "--benchmarks=backup")...); code != 0 {
			t.Fatalf("%s: %s", eng, stderr)
		}
		keep := filepath.Join(restored, "CURRENT")
		if err := os.WriteFile(keep, []byte("someone else's\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		before := snapshot()
		code, _, stderr := runMain(t, append(common, "--db="+db, "--use_existing_db", "--benchmarks=restore")...)
		if code != 1 || !strings.Contains(stderr, "Invalid argument: "+restored+" holds CURRENT") {
			t.Fatalf("%s: restore over a DB: exit %d, stderr:\n%s", eng, code, stderr)
		}
		if after := snapshot(); after != before {
			t.Fatalf("%s: files changed:\nbefore %v\nafter  %v", eng, before, after)
		}
		if got, _ := os.ReadFile(keep); string(got) != "someone else's\n" {
			t.Fatalf("%s: CURRENT in the restore directory was overwritten", eng)
		}
	}
}

// restoreDamaged changes one byte of a file of backup 1 in backups and
// requires restore (args) to exit 1 naming it, leaving snapshot's view
// unchanged.
func restoreDamaged(t *testing.T, eng string, args []string, backups string, snapshot func() string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(backups, "private", "1", "*"))
	var victim string
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > 100 {
			victim = f
			break
		}
	}
	if victim == "" {
		t.Fatalf("%s: no backup file to damage in %v", eng, files)
	}
	data, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x40
	if err := os.WriteFile(victim, data, 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot()
	code, _, stderr := runMain(t, args...)
	if code != 1 || !strings.Contains(stderr, "Corruption: File corrupted: "+victim) {
		t.Fatalf("%s: restore of a damaged backup: exit %d, stderr:\n%s", eng, code, stderr)
	}
	if after := snapshot(); after != before {
		t.Fatalf("%s: files changed:\nbefore %v\nafter  %v", eng, before, after)
	}
}

// TestOracleBackupBothWays: the rocksdb engine's backup and restore are
// RocksDB's BackupEngine, so a backup C++ db_bench makes restores here,
// and one made here restores in C++ db_bench, each holding the DB's
// contents (ldb scan).
func TestOracleBackupBothWays(t *testing.T) {
	requireRocksDBOracle(t)
	if _, err := exec.LookPath("ldb"); err != nil {
		t.Skip("RocksDB's ldb (Debian rocksdb-tools, beside db_bench) is not on PATH; skipped")
	}
	dir := t.TempDir()
	fill := []string{"--benchmarks=fillrandom,backup", "--num=1000", "--seed=4"}

	cxxDB, cxxBackups, oursRestored := filepath.Join(dir, "cxx"), filepath.Join(dir, "cxx-backups"), filepath.Join(dir, "ours-restored")
	runOracleIn(t, cxxDB, append(fill, "--backup_dir="+cxxBackups))
	if code, _, stderr := runMain(t, "--engine=rocksdb", "--db="+filepath.Join(dir, "ours-scratch"), "--benchmarks=restore",
		"--backup_dir="+cxxBackups, "--restore_dir="+oursRestored); code != 0 {
		t.Fatalf("restore of C++'s backup: %s", stderr)
	}
	if got, want := ldbScan(t, oursRestored), ldbScan(t, cxxDB); string(got) != string(want) || len(want) == 0 {
		t.Fatalf("C++'s backup restored here scans %d bytes, C++'s DB %d; they differ", len(got), len(want))
	}

	oursDB, oursBackups, cxxRestored := filepath.Join(dir, "ours"), filepath.Join(dir, "ours-backups"), filepath.Join(dir, "cxx-restored")
	if code, _, stderr := runMain(t, append(fill, "--engine=rocksdb", "--db="+oursDB, "--backup_dir="+oursBackups)...); code != 0 {
		t.Fatalf("our backup: %s", stderr)
	}
	runOracleIn(t, filepath.Join(dir, "cxx-scratch"), []string{"--benchmarks=restore", "--backup_dir=" + oursBackups, "--restore_dir=" + cxxRestored})
	if got, want := ldbScan(t, cxxRestored), ldbScan(t, cxxDB); string(got) != string(want) {
		t.Fatalf("our backup restored by C++ scans %d bytes, C++'s DB %d; they differ", len(got), len(want))
	}
}

// TestBackupKeepsFilesItDidNotWrite: a stranger's file in a backup's
// directory stops the next backup with exit 1 before it deletes anything
// of the old backup, which still restores.
func TestBackupKeepsFilesItDidNotWrite(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--num=300", "--db=" + filepath.Join(dir, "db"), "--backup_dir=" + filepath.Join(dir, "backups")}
	if code, _, stderr := runMain(t, append(args, "--benchmarks=fillrandom,backup")...); code != 0 {
		t.Fatal(stderr)
	}
	stranger := filepath.Join(dir, "backups", "private", "1", "notes.txt")
	if err := os.WriteFile(stranger, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runMain(t, append(args, "--use_existing_db", "--benchmarks=backup")...)
	if code != 1 || !strings.Contains(stderr, "holds notes.txt, which its backup's meta file does not name; not deleting old backups") {
		t.Fatalf("backup over a backup holding a stranger's file: exit %d\n%s", code, stderr)
	}
	if got, err := os.ReadFile(stranger); err != nil || string(got) != "mine" {
		t.Fatalf("the stranger's file: %q, %v", got, err)
	}
	restored := filepath.Join(dir, "restored")
	if code, _, stderr := runMain(t, append(args, "--use_existing_db", "--benchmarks=restore", "--restore_dir="+restored)...); code != 0 {
		t.Fatalf("the old backup no longer restores: %s", stderr)
	}
	if code, _, stderr := runMain(t, "--db="+restored, "--use_existing_db", "--benchmarks=verify", "--truth_db="+filepath.Join(dir, "db")); code != 0 {
		t.Fatalf("the old backup restores unequal: %s", stderr)
	}
}

// TestBackupDirLockedByAnother: while another process holds the backup
// directory's LOCK, backup and restore exit 1 in RocksDB's words for a
// held lock, and the backup already there is untouched; once released,
// both run.
func TestBackupDirLockedByAnother(t *testing.T) {
	dir := t.TempDir()
	backups := filepath.Join(dir, "backups")
	args := []string{"--num=300", "--db=" + filepath.Join(dir, "db"), "--backup_dir=" + backups, "--restore_dir=" + filepath.Join(dir, "restored")}
	if code, _, stderr := runMain(t, append(args, "--benchmarks=fillrandom,backup")...); code != 0 {
		t.Fatal(stderr)
	}
	before := listTree(t, backups)
	lockPath := filepath.Join(backups, "LOCK")
	// flock locks belong to the open file: a second open of LOCK in this
	// process conflicts as another process's would.
	held, err := os.OpenFile(lockPath, os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("backup left no LOCK: %v", err)
	}
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	want := "IO error: While lock file: " + lockPath + ": Resource temporarily unavailable"
	for _, bench := range []string{"backup", "restore"} {
		code, _, stderr := runMain(t, append(args, "--use_existing_db", "--benchmarks="+bench)...)
		if code != 1 || !strings.Contains(stderr, want) {
			t.Fatalf("%s with the backup directory locked: exit %d\n%s", bench, code, stderr)
		}
	}
	if after := listTree(t, backups); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Fatalf("the refused runs changed the backup directory:\nbefore %v\nafter %v", before, after)
	}
	held.Close()
	if code, _, stderr := runMain(t, append(args, "--use_existing_db", "--benchmarks=backup,restore")...); code != 0 {
		t.Fatalf("after the lock is released: %s", stderr)
	}
}

// TestBackupDirIsADatabase: --backup_dir naming a database's directory (the
// DB's own here) is refused before the backup makes anything there or
// opens its LOCK, which is the DB's (on pebble, closing it would drop the
// DB's record lock), on the engines without a backup engine of their own;
// the DB still reads.
func TestBackupDirIsADatabase(t *testing.T) {
	for _, eng := range []string{"native", "pebble"} {
		t.Run(eng, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "db")
			args := []string{"--engine=" + eng, "--num=300", "--db=" + db, "--backup_dir=" + db}
			if code, _, stderr := runMain(t, append(args, "--benchmarks=fillrandom")...); code != 0 {
				t.Fatal(stderr)
			}
			code, _, stderr := runMain(t, append(args, "--use_existing_db", "--benchmarks=backup")...)
			if code != 1 || !strings.Contains(stderr, "Invalid argument: "+db+" holds a database (") {
				t.Fatalf("backup into the DB's directory: exit %d\n%s", code, stderr)
			}
			for _, name := range []string{"private", "meta", "LATEST"} {
				if _, err := os.Lstat(filepath.Join(db, name)); !os.IsNotExist(err) {
					t.Errorf("the refused backup made %s in the DB directory: %v", name, err)
				}
			}
			code, out, stderr := runMain(t, append(args, "--use_existing_db", "--benchmarks=readseq")...)
			if code != 0 || !strings.Contains(out, "readseq") {
				t.Fatalf("the DB after the refused backup: exit %d\n%s\n%s", code, out, stderr)
			}
		})
	}
}

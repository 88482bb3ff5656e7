package engine

// Checkpointer is implemented by a DB that can write a consistent copy of
// itself, RocksDB's Checkpoint::CreateCheckpoint: Checkpoint(dir) creates
// dir, which must not exist, and fills it with the files of a database
// that the engine's Opener opens holding every write acknowledged before
// the call (later writes may be there too), hard-linking files where it
// can. The driver's backup benchmark builds on it for engines without a
// backup engine of their own (BackupEngine).
type Checkpointer interface {
	Checkpoint(dir string) error
}

// BackupEngine is implemented by an Opener whose engine has its own backup
// format, RocksDB's BackupEngine, which the backup and restore benchmarks
// then use instead of the driver's checkpoint-based backups. rateLimit is
// in bytes per second, 0 for none.
type BackupEngine interface {
	// Backup makes a new backup of db in backupDir, deleting every
	// backup already there (db_bench's destroy_old_data).
	Backup(db DB, backupDir string, rateLimit uint64) error
	// Restore restores the latest backup of backupDir into restoreDir (the
	// DB and its WAL both).
	Restore(backupDir, restoreDir string, rateLimit uint64) error
}

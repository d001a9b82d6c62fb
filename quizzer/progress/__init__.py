"""Progress: the SQLite store, FSRS scheduling, statistics, backups."""

"""memgov's SQLite database backend (see base.py)."""

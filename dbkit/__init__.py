"""Database helpers that every app sits on: row inserts and reads without the ORM's per-field chain
(``rows``), sortable ids (``ids``), memgov's SQLite backend and its background WAL checkpointer.

Imports Django only — nothing of the product. Speed-driven code lives here, named for what it does.
"""

"""The session services: every write to sessions, one function per action, each auditing itself.

``sessions`` (create, update, fork, delete), ``events`` (append, pop), ``compaction``, ``tasks``,
``retention`` (the purge job) and ``erasure`` (a subject's memories and sessions together).
"""

"""Sessions and their history (DESIGN.md "Sessions and history"): the session, its append-only tree of
encrypted events with a gapless per-session ``seq``, forks that share their prefix, the snapshot chain
behind time travel, the three state scopes (app / user / session), non-destructive compaction and the
context projection, structured task state, tool results, retention and deletion — and the erasure of a
subject, which covers their memories and their sessions together.

Services (``conversations.services``) write, one function per action in ``transaction.atomic`` with its
audit event; selectors (``conversations.selectors``) read. Both take the tenant; none has a path that
reads across tenants.

May import ``memories`` (session/task memories go with a deleted session; a kept tool result goes through
``memories.services.write.memory_write``), ``governance``, ``audit``, ``vault`` and ``dbkit``.
``memories`` and everything below it must not import this package.
"""

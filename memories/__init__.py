"""The data people own: memory records, their versions, confirmations and rule decisions; the write and
read services (``services/``, ``read/``), the selectors, lifecycle jobs (``lifecycle/``) and the
natural-language commands (``nlcommands/``).

It may import ``governance``, ``audit``, ``vault`` and ``dbkit``; the pages, the API, the console and
the evaluations sit above it and nothing here imports them.
"""

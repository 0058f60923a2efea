"""Read-only tables a process maps from files instead of holding them as Python objects.

jieba's dictionary, the bilingual lexicon and the static embedding model are read by every web worker and
every Celery worker. Held as dicts of strings or as a copied array they take tens of MB in each process,
and under gunicorn's ``--preload`` a worker's share of its master's copy does not stay shared: reading a
Python object writes its reference count, so the page is copied. Written once to files under
``MEMGOV_VAR_DIR/tables`` and mapped (``mmap``), a table is held once by the machine, in the page cache,
whatever the number of processes that read it, only the pages read are loaded, and it opens in
milliseconds. docs/operations.md ("Start-up and memory") has the figures.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from django.conf import settings


def table_directory(name: str, digest: str, build: Callable[[Path], None]) -> Path:
    """The directory ``tables/<name>-<digest>`` in MEMGOV_VAR_DIR, with the files ``build`` writes into it.

    The first process to need it builds it in a temporary directory and renames that into place, so a
    reader sees every file of one build or none; a process that loses the race uses the winner's. The
    digest names what the files were built from (a package's version, the rules), so a change builds a
    new directory. Where MEMGOV_VAR_DIR can't be written, the process builds a copy of its own in the
    system's temporary folder."""
    root = Path(settings.VAR_DIR) / "tables"
    final = root / f"{name}-{digest}"
    if final.is_dir():
        return final
    try:
        root.mkdir(parents=True, exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=root))
    except OSError:
        own = Path(tempfile.mkdtemp(prefix=f"memgov-{name}-"))
        build(own)
        return own
    try:
        build(partial)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    try:
        partial.rename(final)
    except OSError:  # another process renamed its build first: the same files
        shutil.rmtree(partial, ignore_errors=True)
        if not final.is_dir():
            raise
    return final

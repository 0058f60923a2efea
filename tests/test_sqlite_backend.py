"""dbkit.sqlite3: Django's SQLite backend, with each statement's placeholders converted once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.backends.sqlite3.base import SQLiteCursorWrapper

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backend only")


@pytest.mark.parametrize(
    "query",
    [
        "SELECT %s",
        "SELECT * FROM t WHERE a = %s AND b LIKE '%%x%%' AND c IN (%s, %s)",
        "SELECT '%%s', %s",
        "UPDATE t SET a = %s",
    ],
)
def test_it_converts_as_django_does(query):
    from dbkit.sqlite3.base import CursorWrapper

    ours = CursorWrapper.convert_query(None, query)
    django = SQLiteCursorWrapper.convert_query(None, query)
    assert ours == django


@pytest.mark.django_db
def test_named_parameters_are_converted_as_before():
    from dbkit.sqlite3.base import CursorWrapper

    with connection.cursor() as cursor:
        assert isinstance(cursor.cursor, CursorWrapper)  # the backend's own cursor is in use
        cursor.execute("SELECT %(a)s + %(b)s", {"a": 2, "b": 3})
        assert cursor.fetchone() == (5,)


@pytest.mark.django_db
def test_a_repeated_statement_is_converted_once():
    from dbkit.sqlite3.base import _qmark

    statement = "SELECT %s + %s -- test_a_repeated_statement_is_converted_once"
    with connection.cursor() as cursor:
        cursor.execute(statement, [1, 2])
        before = _qmark.cache_info()
        cursor.execute(statement, [3, 4])
        assert cursor.fetchone() == (7,)
    after = _qmark.cache_info()
    assert after.hits == before.hits + 1 and after.misses == before.misses

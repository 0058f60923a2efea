"""The Chinese interface reads its compiled catalogue (.mo): it must hold every translation the .po has.
A .mo left behind by a merge (newer on disk than the .po it came from) silently shows English."""

from __future__ import annotations

from pathlib import Path

import polib
from django.conf import settings

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "zh_Hans" / "LC_MESSAGES"


def _texts(entries: list[polib.POEntry] | polib.MOFile) -> dict[tuple[str | None, str], object]:
    return {
        (entry.msgctxt, entry.msgid): {int(k): v for k, v in entry.msgstr_plural.items()} or entry.msgstr
        for entry in entries
    }


def test_the_compiled_catalogue_says_what_the_source_says():
    source = _texts(polib.pofile(str(CATALOGUE / "django.po")).translated_entries())
    compiled = _texts(polib.mofile(str(CATALOGUE / "django.mo")))
    wrong = sorted(key[1] for key, text in source.items() if compiled.get(key) != text)
    assert len(source) > 500
    assert not wrong, f"{len(wrong)} translations are missing or differ in the .mo (compilemessages): {wrong[:5]}"

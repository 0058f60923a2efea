"""Which languages the gate reads, and which passages of a text it can't.

Every lexicon of the write gate, and the learned classifier's training, read English and Chinese. A
passage in another language — "Ignoriere alle vorherigen Anweisungen", "以前の指示をすべて無視して" —
is text the gate cannot vouch for: it may be a preference, or an order to the assistant that no
lexicon names. :func:`unread_language` finds such a passage so the pipeline can deny by default
(docs/write-pipeline.md, "Languages the gate doesn't read").

A text is split into sentences; a sentence is *unread* when

- six or more letters of a script other than Latin and Han (Cyrillic, Greek, Arabic, Hebrew,
  Devanagari, Thai, Hangul, kana, …) make up most of it (a Han character weighing two letters), or it
  holds four hiragana — English and Chinese don't write in them; a name or a title in such a script
  inside English or Chinese is a minority of the letters; or
- its Latin-script words (three or more, twelve letters or more; tokens with digits or joined by
  ``_``/``-`` are identifiers and secrets, not words; capitalized words after the first are names, unless
  two thirds are capitalized) are identified as a language other than English, the three likeliest
  such languages together at 0.85 or more — unless the sentence is Chinese that names things in Latin
  letters (no more than three letters for each Han character; there every capitalized word is a name).

Language identification is py3langid's naive Bayes model over byte n-grams (142 languages, shipped
in its wheel; nothing is downloaded). Its tables are written once to ``MEMGOV_VAR_DIR/tables`` and
mapped by every process (:mod:`governance.mapped_files`), as the other large tables are. Han text is
read as Chinese (the screen folds traditional characters to simplified for the lexicons).
"""

from __future__ import annotations

import hashlib
import json
import mmap
import re
from functools import cache
from pathlib import Path
from threading import Lock
from typing import TYPE_CHECKING

from governance.mapped_files import table_directory
from governance.pipeline.base import Stop, WriteContext
from governance.pipeline.reasons import ReasonCode
from governance.vocabulary import DecisionKind

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

READ_LANGUAGES = frozenset({"en", "zh"})
# What the model says of text that is no language at all (codes, numbers, symbols).
_NO_LANGUAGE = "zxx"
_READ_OR_NONE = READ_LANGUAGES | {_NO_LANGUAGE}
# The three likeliest languages, together: the model splits a sentence between close relatives
# (Indonesian and Malay, Danish, Norwegian and Swedish, Dutch and Afrikaans).
MIN_PROBABILITY = 0.85
MIN_WORDS = 3
MIN_LETTERS = 12
MIN_OTHER_SCRIPT_LETTERS = 6
# A Han character carries about as much as three Latin letters: below that share, the Latin words of a
# sentence are names inside Chinese text, not a passage of their own.
LATIN_PER_HAN = 3

_SENTENCE = re.compile(r"[.!?。！？;；:：\n]+")
_LATIN = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
# Han in every block (the extensions too) and Bopomofo, Chinese's own phonetic script.
_HAN = "\u2e80-\u2fdf\u3100-\u312f\u31a0-\u31bf\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
# A Latin word: letters (an apostrophe or hyphen between them), not touching a digit, "_" or "-".
_LATIN_WORD = re.compile(rf"(?<![{_LATIN}0-9_\-])[{_LATIN}]+(?:['’\-][{_LATIN}]+)*(?![{_LATIN}0-9_\-])")
_LETTER = re.compile(r"[^\W\d_]")
_LATIN_OR_HAN = re.compile(rf"[{_LATIN}{_HAN}]")
_HAN_CHAR = re.compile(f"[{_HAN}]")
_HIRAGANA = re.compile("[\u3041-\u309f]")
_lock = Lock()


def unread_language(text: str) -> str | None:
    """The language (ISO 639 code, ``und`` when the script says more than the model) of the first
    sentence of ``text`` the gate doesn't read, or None when it reads every sentence."""
    for sentence in _SENTENCE.split(text):
        letters = _LETTER.findall(sentence)
        if len(letters) < MIN_OTHER_SCRIPT_LETTERS:
            continue
        han = len(_HAN_CHAR.findall(sentence))
        other_script = len(letters) - len(_LATIN_OR_HAN.findall(sentence))
        # Another script over most of the sentence (a Han character weighs two letters): a Cyrillic name or
        # a katakana title inside English or Chinese is a name, not a passage. Hiragana (Japanese grammar:
        # の, を, て) is never part of Chinese: a few of them make the sentence Japanese.
        dominant = other_script > len(letters) - other_script - han + 2 * han
        if other_script >= MIN_OTHER_SCRIPT_LETTERS and (dominant or len(_HIRAGANA.findall(sentence)) >= 4):
            language, _ = identifier().classify(sentence.lower())
            return language if language not in _READ_OR_NONE else "und"
        words = _language_words(_LATIN_WORD.findall(sentence), in_chinese=han > 0)
        latin_letters = sum(map(len, words))
        if len(words) < MIN_WORDS or latin_letters < MIN_LETTERS:
            continue
        if latin_letters <= LATIN_PER_HAN * han:
            continue  # a Chinese sentence that names people, places or products in Latin letters
        joined = " ".join(words)
        if identifier().classify(joined)[0] in _READ_OR_NONE:
            continue  # the likeliest language is read (what rank() would put first, without ranking all 142)
        ranked = identifier().rank(joined)
        others = [probability for language, probability in ranked[:4] if language not in _READ_OR_NONE]
        if sum(others[:3]) >= MIN_PROBABILITY:
            return ranked[0][0]
    return None


def _language_words(words: list[str], *, in_chinese: bool) -> list[str]:
    """The Latin words that tell a sentence's language, lower-cased: without the capitalized ones after its
    first, which are names ("My name is Siobhán Ní Bhriain") — unless two thirds of them are capitalized (a
    title, or text written so that every word would pass as a name). Inside a Chinese sentence every
    capitalized Latin word is a name ("我在 Deutsche Telekom 的 Digitalisierung und Innovation 部门")."""
    if in_chinese:
        return [word.lower() for word in words if not word[:1].isupper()]
    later = words[1:]
    capitalized = sum(1 for word in later if word[:1].isupper())
    if capitalized * 3 > len(later) * 2:
        return [word.lower() for word in words]
    return [words[0].lower(), *(word.lower() for word in later if not word[:1].isupper())] if words else []


def unread_stop(ctx: WriteContext, language: str) -> Stop:
    """The rejection of a memory with a passage in ``language``: the agent can restate it in a language
    the gate reads. The code, not the passage, goes in the notes (content is never in an audit row)."""
    return Stop(
        ctx.with_(notes=(*ctx.notes, f"unread language: {language}")).decide(
            DecisionKind.REJECT,
            ReasonCode.UNREAD_LANGUAGE,
            "The write gate reads English and Chinese, and part of this is in another language "
            f"({language}) it cannot check. Restate the memory in English or Chinese.",
        )
    )


def identifier() -> LanguageIdentifier:
    """py3langid's ``LanguageIdentifier`` over the mapped tables, built once per process."""
    with _lock:
        return _load()


@cache
def _load() -> LanguageIdentifier:
    import numpy as np
    from py3langid.langid import LanguageIdentifier

    directory = table_directory("py3langid", _digest(), _write_tables)
    meta = json.loads((directory / "meta.json").read_text())
    ptc = np.load(directory / "ptc.npy", mmap_mode="r")
    pc = np.load(directory / "pc.npy")
    nextmove = _mapped(directory / "nextmove.bin", meta["nextmove"])
    row = _mapped(directory / "row.bin", meta["row"])
    output = _mapped(directory / "output.bin", "i")
    return LanguageIdentifier(ptc, pc, meta["classes"], nextmove, output, norm_probs=True, tk_row=row)


def _mapped(path: Path, typecode: str) -> memoryview:
    """The file as a read-only array of ``typecode`` items, its pages shared by every process."""
    with path.open("rb") as file:
        mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    return memoryview(mapping).cast(typecode)


def _digest() -> str:
    from importlib.metadata import version

    return hashlib.sha256(f"{version('py3langid')}|tables|1".encode()).hexdigest()[:16]


def _write_tables(directory: Path) -> None:
    import numpy as np
    from py3langid.langid import MODEL_DIR, MODEL_FILE
    from py3langid.modelio import load_model

    ptc, pc, classes, nextmove, row, output = load_model(MODEL_DIR / MODEL_FILE)
    np.save(directory / "ptc.npy", np.ascontiguousarray(ptc))
    np.save(directory / "pc.npy", np.asarray(pc))
    (directory / "nextmove.bin").write_bytes(nextmove.tobytes())
    (directory / "row.bin").write_bytes(row.tobytes())
    (directory / "output.bin").write_bytes(np.asarray(output, dtype=np.int32).tobytes())
    meta = {"classes": list(classes), "nextmove": nextmove.typecode, "row": row.typecode}
    (directory / "meta.json").write_text(json.dumps(meta))


def warm_up() -> None:
    identifier().classify("warm up")

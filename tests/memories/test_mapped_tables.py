"""jieba's dictionary, the bilingual lexicon and the static model's matrix are tables mapped from files
(governance/mapped_files.py): they must give exactly what the in-memory originals give, be mapped rather than
copied into the process, and be built once, whole, by whichever process gets there first."""

from __future__ import annotations

import json
import random
import re
import threading
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from governance import mapped_files
from governance.pipeline import static_model
from memories.read import bilingual, word_table
from memories.read.segment import jieba_tokenizer

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import jieba

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
_CJK = re.compile("[\u4e00-\u9fff]")


@cache
def _chinese_texts() -> tuple[str, ...]:
    """Every string with Chinese in the project's fixtures (evaluation sets, conversations), and random runs
    of their characters: text the cuts were never looked at on."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str) and _CJK.search(value):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in sorted(FIXTURES.rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                walk(json.loads(line))
    texts = sorted(found)
    rng = random.Random(19)
    sample = rng.sample(texts, min(len(texts), 1500))
    characters = sorted({c for text in texts for c in text})
    soup = ["".join(rng.choice(characters) for _ in range(rng.randint(1, 80))) for _ in range(500)]
    return tuple(sample + soup)


@cache
def _stock() -> jieba.Tokenizer:
    tokenizer = jieba.Tokenizer()
    tokenizer.tmp_dir = None
    tokenizer.initialize()
    return tokenizer


@pytest.mark.parametrize(
    "cut",
    [
        pytest.param(lambda t, s: t.lcut(s, HMM=True), id="precise"),
        pytest.param(lambda t, s: t.lcut(s, HMM=False), id="precise-no-hmm"),
        pytest.param(lambda t, s: t.lcut_for_search(s), id="search"),
        pytest.param(lambda t, s: t.lcut(s, cut_all=True), id="full"),
    ],
)
def test_the_mapped_dictionary_cuts_every_text_as_jieba_does(cut):
    texts = _chinese_texts()
    assert len(texts) > 1000
    mapped = jieba_tokenizer()
    assert isinstance(mapped, word_table.MappedTokenizer)
    differing = [text for text in texts if cut(mapped, text) != cut(_stock(), text)]
    assert differing == []


def test_the_mapped_dictionary_has_jiebas_words_counts_and_total():
    stock, mapped = _stock(), jieba_tokenizer()
    assert mapped.total == stock.total
    counted = {word: count for word, count in stock.FREQ.items() if count}
    assert len(mapped.FREQ) == len(counted)
    assert all(mapped.FREQ[word] == count for word, count in counted.items())
    prefixes_only = [word for word, count in stock.FREQ.items() if not count][:5000]
    assert prefixes_only and all(mapped.FREQ.get(word) is None for word in prefixes_only)


def test_the_mapped_lexicon_holds_what_the_dictionary_builds():
    built = bilingual._build()
    mapped = bilingual.lexicon()
    assert isinstance(mapped.glosses, bilingual.WordsTable)
    for name in ("glosses", "reverse"):
        table, original = getattr(mapped, name), getattr(built, name)
        assert len(table) == len(original) > 10_000
        assert all(table.get(key) == words for key, words in original.items())
    assert mapped.glosses.get("not a headword") is None and mapped.reverse.get("zzz qqq", ()) == ()


def test_the_mapped_matrix_embeds_exactly_as_the_wheels_weights():
    import wordllama
    from safetensors import safe_open
    from wordllama import WordLlama
    from wordllama.inference import WordLlamaInference

    root = Path(wordllama.__file__).parent
    with safe_open(str(root / "weights" / "l2_supercat_256.safetensors"), framework="np") as weights:
        matrix = weights.get_tensor("embedding.weight")
    tokenizer = WordLlama.load_tokenizer(root / "tokenizers" / "l2_supercat_tokenizer_config.json")
    original = WordLlamaInference(matrix, tokenizer, binary=False)
    texts = [*_chinese_texts()[:200], "Keep answers short", "ignore the rules above", "x" * 3000]
    assert np.array_equal(static_model.l2_supercat().embed(texts, norm=False), original.embed(texts, norm=False))


def test_the_one_text_path_pools_exactly_as_the_models_batch_call():
    """``mean_embeddings`` (what the gate's classifier and the built-in embedder call) skips the batch call's
    padding and mask: the numbers must not move, one text or many, empty or longer than a batch."""
    texts = [*_chinese_texts()[:300], "", "Keep answers short", "ignore the rules above", "x" * 3000, "naïve café 😀"]
    model = static_model.l2_supercat()
    assert np.array_equal(static_model.mean_embeddings(texts), model.embed(texts, norm=False))
    for text in texts[-6:]:
        assert np.array_equal(static_model.mean_embeddings([text]), model.embed([text], norm=False))
    assert static_model.mean_embeddings([]).shape == (0, 256)


def test_the_tables_are_mapped_from_files_not_copied_into_the_process():
    jieba_tokenizer()
    bilingual.lexicon()
    static_model.l2_supercat()
    maps = Path("/proc/self/maps").read_text()
    for name in ("words.marisa", "counts.u32", "glosses.marisa", "reverse.marisa", "embedding.npy"):
        assert f"/{name}" in maps, name


def _counting_build(calls: list[int]):
    def build(directory: Path) -> None:
        calls.append(1)
        (directory / "a").write_text("one")
        (directory / "b").write_text("two")

    return build


def test_a_table_is_built_once_and_then_opened(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    calls: list[int] = []
    first = mapped_files.table_directory("t", "d1", _counting_build(calls))
    again = mapped_files.table_directory("t", "d1", _counting_build(calls))
    assert first == again == tmp_path / "tables" / "t-d1" and len(calls) == 1
    assert (first / "a").read_text() == "one" and (first / "b").read_text() == "two"
    mapped_files.table_directory("t", "d2", _counting_build(calls))  # another digest: built anew
    assert len(calls) == 2


def test_processes_racing_to_build_a_table_all_get_one_whole_build(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    start = threading.Barrier(6)
    results: list[Path] = []

    def build(directory: Path) -> None:
        start.wait()
        (directory / "a").write_text("whole")

    def racer() -> None:
        results.append(mapped_files.table_directory("race", "d", build))

    threads = [threading.Thread(target=racer) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [tmp_path / "tables" / "race-d"] * 6
    assert (results[0] / "a").read_text() == "whole"
    assert [p.name for p in (tmp_path / "tables").iterdir()] == ["race-d"]  # no partial build left behind


def test_a_failed_build_leaves_nothing_and_is_tried_again(settings, tmp_path):
    settings.VAR_DIR = tmp_path

    def failing(directory: Path) -> None:
        (directory / "a").write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        mapped_files.table_directory("t", "d", failing)
    assert list((tmp_path / "tables").iterdir()) == []
    calls: list[int] = []
    assert (mapped_files.table_directory("t", "d", _counting_build(calls)) / "a").read_text() == "one"


def test_a_var_dir_that_cannot_be_written_gets_a_private_copy(settings, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be")  # mkdir under it fails, whoever runs the test
    settings.VAR_DIR = blocked
    calls: list[int] = []
    directory = mapped_files.table_directory("t", "d", _counting_build(calls))
    assert not directory.is_relative_to(blocked) and (directory / "b").read_text() == "two"

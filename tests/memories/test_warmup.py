"""A serving process loads its slow parts before its first request or job: the detector, jieba, the bilingual
lexicon, the gate's classifier and language identifier and the inline embedder (memories/warmup.py), from
the web entry points and a Celery worker's start."""

from __future__ import annotations

from celery.signals import worker_init

from config import celery as celery_config
from governance.pipeline import injection_model, language, static_model
from governance.recognizers import engine
from memories.embedding.embedders import current_embedder
from memories.read import bilingual, segment
from memories.warmup import warm_up


def test_warm_up_loads_the_detector_classifier_tokenizer_lexicon_and_embedder(monkeypatch):
    embedder = current_embedder()
    assert embedder is not None and embedder.inline  # the default: builtin
    monkeypatch.setattr(bilingual, "_lexicon", None)
    monkeypatch.setattr(segment, "_jieba", None)
    static_model._load.cache_clear()
    injection_model._load_weights.cache_clear()
    language._load.cache_clear()
    warm_up()
    assert bilingual._lexicon is not None and segment._jieba is not None
    assert static_model._load.cache_info().currsize == 1  # the embedder's and the classifier's model
    assert injection_model._load_weights.cache_info().currsize == 1
    assert language._load.cache_info().currsize == 1
    assert engine._detector is not None


def test_a_celery_worker_warms_up_when_it_starts():
    receivers = [ref() for _, ref in worker_init.receivers]
    assert celery_config.warm_up_worker in receivers

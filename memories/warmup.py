"""What a serving process (a web worker, a Celery worker) loads before its first request or job, so that
nobody's first write or read waits seconds for it: the sensitivity detector (presidio, spaCy), the gate's
injection classifier and language identifier, jieba's dictionary, the CC-CEDICT lexicon of the bilingual
ranking and the inline embedder's model files.

A remote embedder (``openai``) is not called: start-up must not depend on another service.
"""

from __future__ import annotations


def warm_up() -> None:
    from governance.pipeline.injection_model import warm_up as warm_up_classifier
    from governance.pipeline.language import warm_up as warm_up_language
    from governance.recognizers import warm_up as warm_up_detector
    from memories.embedding.embedders import current_embedder
    from memories.read.bilingual import warm_up as warm_up_lexicon
    from memories.read.segment import jieba_tokenizer

    warm_up_detector()
    warm_up_classifier()
    warm_up_language()
    jieba_tokenizer()
    warm_up_lexicon()
    embedder = current_embedder()
    if embedder is not None and embedder.inline:
        embedder.embed(["warm-up"], kind="document")  # loads the model on first use

"""Embeddings of memory content: the embedder chosen by settings, and vectors as sealed content.

``embedders.py`` is the one small interface (``Embedder.embed``) and its kinds — ``none``, the built-in
offline model (a static model shipped in a wheel, reading Chinese through CC-CEDICT glosses), a
model2vec model directory the operator provides, and an OpenAI-compatible ``/embeddings`` endpoint.
``vectors.py`` packs a vector for the encrypted column and opens it again on the read path.

May import: config (settings), ``memories.read.segment`` / ``memories.read.bilingual`` (the terms the
built-in model reads). Nothing here touches the database: ``memories.services.embeddings`` stores and
deletes vectors, ``memories.lifecycle.reembed`` is the background job.
"""

"""What a web process loads before its first request, whichever server runs it (config/wsgi.py, asgi.py)."""

import gc


def warm_up_process() -> None:
    # The sensitivity detector (presidio, spaCy) and jieba's dictionary (the read path's Chinese
    # segmentation) take seconds to load: load them now rather than on the first request.
    from governance.recognizers import warm_up
    from memories.read.segment import jieba_tokenizer

    warm_up()
    jieba_tokenizer()
    # Everything loaded so far lives as long as the process: keep it out of the garbage collector's
    # full scans, which otherwise show up as millisecond pauses in request latency.
    gc.freeze()

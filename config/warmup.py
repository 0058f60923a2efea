"""What a serving process loads before its first request or job, whichever server runs it (config/wsgi.py,
asgi.py, and a Celery worker's start in config/celery.py)."""

import gc


def warm_up_process() -> None:
    from memories.warmup import warm_up

    # The detector, the tokenizers and the embedder take seconds to load: now, not on the first request.
    warm_up()
    # Everything loaded so far lives as long as the process: keep it out of the garbage collector's
    # full scans, which otherwise show up as millisecond pauses in request latency.
    gc.freeze()

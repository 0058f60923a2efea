import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Load the sensitivity detector (presidio, spaCy) now rather than on the first request.
from governance.recognizers import warm_up  # noqa: E402

warm_up()

# And jieba's dictionary (the read path's Chinese segmentation), which takes about a second to load.
from memories.read.segment import jieba_tokenizer  # noqa: E402

jieba_tokenizer()

# Everything loaded so far lives as long as the process: keep it out of the garbage collector's
# full scans, which otherwise show up as millisecond pauses in request latency.
gc.freeze()

"""Configuration only: settings read from the environment (``settings``, ``env``), and the wiring
(``urls``, ``wsgi``, ``celery``, ``health``) that names the apps. Settings import no app; the wiring sits
above everything.
"""

# Load the Celery app whenever Django starts, so that shared_task uses it (Celery's Django recipe).
from config.celery import app as celery_app

__all__ = ("celery_app",)

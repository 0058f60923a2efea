# Load the Celery app whenever Django starts, so that shared_task uses it (Celery's Django recipe).
from config.celery import app as celery_app

__all__ = ("celery_app",)

"""Monitoring (§17): the metrics the console charts and Prometheus scrapes, and the alerts raised on
them (thresholds judged by ``governance.alerting``, evaluated on Celery beat).

Reads audit events and memory records, so it sits above ``memories`` and ``audit``; the console and
``/metrics`` use it, nothing below does.
"""

"""Evaluation and benchmarks: ``evaluate_policy``, ``evaluate_read`` and the ``bench_*`` commands.

They exercise the real services end to end, so they sit above everything they measure and nothing
imports them. Each evaluation runs in a throwaway tenant inside a transaction that is rolled back.
"""

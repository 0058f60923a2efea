"""The demo: ``seed_demo`` (tenants, people, memories and sessions, written through the same services
as real writes) and ``run_stack`` (web, worker and beat in one command, what ``make run`` serves).

Top of the stack: it may import any app; nothing imports it.
"""

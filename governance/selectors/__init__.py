"""Reads of the governance app: each selector takes the tenant; services do the writing."""

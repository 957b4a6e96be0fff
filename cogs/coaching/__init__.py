"""Coaching: hints and report cards."""

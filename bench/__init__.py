"""Benchmarks: ``python -m bench`` (or ``make bench``) runs every ``bench/*_bench.py``."""

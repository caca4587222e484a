"""The load bench's parts (``python -m bench load``: bench/load_bench.py runs them)."""

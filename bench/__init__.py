"""Benchmark scripts; each prints a markdown table (figures land in docs/benchmarks.md)."""

__all__: list[str] = []

"""Helpers shared by the tests: fakes, oracles, sample data and harnesses.

Test modules and conftest files import shared code only from this package, never from each other
(``tests/test_support_imports.py`` checks it). ``command_forms`` is also used by ``bench/``.
"""

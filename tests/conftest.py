"""Test-run settings shared by every test file.

Hypothesis runs derandomized by default: the suite draws the same examples on
every run, so a red CI is a bug found, never a dice roll. To search further
for new counterexamples, run with ``--hypothesis-profile=explore``.
"""
from __future__ import annotations

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", max_examples=1000)
settings.load_profile("ci")

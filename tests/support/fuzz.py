"""Hypothesis strategies shared by the fuzz tests (``tests/*/test_fuzz.py``).

Each fuzz test feeds an entry point input that is wrong in many ways and
checks that it ends in the one documented error (or succeeds), never in
another exception. ``json_values`` is any value a JSON document can hold.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

json_scalars: st.SearchStrategy[Any] = st.none() | st.booleans() | st.integers() | st.text()
"""A JSON scalar: ``null``, a boolean, an integer (huge ones too), a string."""

json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars | st.floats(allow_nan=True, allow_infinity=True),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=8,
)
"""Any JSON value: scalars (floats with NaN and infinities, as Python's json
reads them), and small lists and objects of them."""

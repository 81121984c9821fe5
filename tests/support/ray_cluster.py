"""A Ray cluster of this machine for the tests that need one (the ``ray`` extra).

:data:`needs_ray` skips a test, with the reason (:data:`RAY_MISSING`), when Ray
is not installed;
:func:`local_cluster` starts a 2-CPU cluster in this process, reachable on the
loopback only (no dashboard), and stops it afterwards.
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

import pytest

CPUS = 2
"""The cluster's CPUs (the games or samplers it runs at once)."""
OBJECT_STORE_BYTES = 100 * 2**20
"""Ray's shared memory for results: little is needed, and the machine is shared."""

RAY_MISSING = 'Ray is not installed (env121\'s ray extra: pip install "env121[ray]")'
"""Why a test that needs Ray is skipped without it."""
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason=RAY_MISSING)
one_cluster_at_a_time = pytest.mark.ray_cluster
"""The mark of every module that starts a local cluster. ``scripts/test.sh``
runs them apart from the others, in one process, module after module
(``pytest -m ray_cluster``): Ray allows one cluster connection a process, and
under ``pytest -n`` a worker could run another module's test while a
module's cluster was still up ("ray.init twice"), and two clusters shared
two cores (the killed-worker test lost its race)."""


@contextmanager
def local_cluster() -> Iterator[ModuleType]:
    """``ray``, connected to a new cluster of :data:`CPUS` CPUs on 127.0.0.1."""
    import ray
    from ray._private import ray_constants

    with pytest.MonkeyPatch.context() as patch:
        # Outside Windows and macOS, Ray serves on the machine's network address;
        # this switch (read by this process at import, by Ray's own processes
        # from the environment) makes every Ray server listen on the loopback.
        patch.setenv(ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR, "0")
        patch.setattr(ray_constants, "ENABLE_RAY_CLUSTER", False)
        patch.delenv("RAY_ADDRESS", raising=False)
        ray.init(
            address="local",  # a new cluster, whatever `ray start` left running here
            num_cpus=CPUS,
            include_dashboard=False,
            object_store_memory=OBJECT_STORE_BYTES,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
        try:
            address = ray.get_runtime_context().gcs_address
            assert address.startswith("127.0.0.1:"), f"Ray listens on {address}, not 127.0.0.1"
            yield ray
        finally:
            ray.shutdown()


def worker_processes(function: str) -> list[int]:
    """The ids of Ray's worker processes running ``function`` now (Ray
    titles a worker ``ray::<function>`` while it runs one)."""
    title = f"ray::{function}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as file:
                    if file.read().startswith(title):
                        found.append(int(entry))
            except OSError:  # it ended meanwhile
                continue
    return found

"""Connecting to Ray, for the arena (``arena --ray``) and self-play (``selfplay --ray``).

Ray is an optional extra (``pip install 'teenpatti-env[ray]'``); every failure to reach it
is a ``ValueError`` with one line that says what to do, which the command line prints as
it is: Ray not installed, nothing answering at the address, a refused connection (token
authentication, a different Ray version), or more workers asked for than the cluster has
CPUs (Ray would wait for them for ever, without a word).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

RAY_EXTRA_HINT = "pip install 'teenpatti-env[ray]'"
_PROBE_SECONDS = 5.0
_SETTLE_SECONDS = 10.0


def import_ray(purpose: str) -> ModuleType:
    """The ``ray`` module, or a ``ValueError`` naming ``purpose`` and the extra."""
    try:
        import ray
    except ImportError:
        raise ValueError(f"{purpose} needs the ray extra: {RAY_EXTRA_HINT}") from None
    module: ModuleType = ray
    return module


def _probe(address: str) -> None:
    """A quick check that something listens at a ``HOST:PORT`` address (Ray itself
    retries for minutes before it gives up on an address where nothing answers)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or "://" in address:
        return  # "auto", "ray://...": Ray's own forms, left to Ray
    try:
        with socket.create_connection((host, int(port)), timeout=_PROBE_SECONDS):
            pass
    except OSError as error:
        raise ValueError(f"cannot connect to Ray at {address}: {error.strerror or error} "
                         "(is `ray start --head` running there?)") from None


def connect(address: str, purpose: str) -> tuple[ModuleType, bool]:
    """The ``ray`` module connected to the cluster at ``address`` (``""``: the one
    ``RAY_ADDRESS`` names, else a new local instance), and whether this call started the
    connection (an instance already connected is used as it is)."""
    ray = import_ray(purpose)
    if ray.is_initialized():
        return ray, False
    if address:
        _probe(address)
    try:
        ray.init(address=address or None, log_to_driver=False)
    except Exception as error:  # Ray raises many kinds: connection, auth, version
        lines = str(error).strip().splitlines() or [type(error).__name__]
        hint = (" (with token authentication on, set RAY_AUTH_MODE=token and the token: "
                "docs/ray.md)") if address else ""
        where = f"at {address}" if address else "(a local instance)"
        raise ValueError(f"cannot connect to Ray {where}: {lines[0]}{hint}") from None
    return ray, True


@contextmanager
def ray_connection(address: str, purpose: str = "this command") -> Iterator[ModuleType]:
    """The ``ray`` module, connected as :func:`connect` connects, for the ``with`` block;
    a connection this call made is shut down after it."""
    ray, started = connect(address, purpose)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def require_cpus(ray: ModuleType, wanted: int, what: str,
                 settle_seconds: float = _SETTLE_SECONDS) -> None:
    """A ``ValueError`` if the cluster has fewer than ``wanted`` free CPUs for ``what``
    (each of its actors takes one): Ray would otherwise wait for them silently. Where the
    cluster has enough CPUs in all, it waits up to ``settle_seconds`` for actors that are
    stopping to give theirs back."""
    deadline = time.monotonic() + settle_seconds
    while True:
        free = float(ray.available_resources().get("CPU", 0.0))
        total = float(ray.cluster_resources().get("CPU", 0.0))
        if wanted <= free:
            return
        if wanted > total or time.monotonic() >= deadline:
            break
        time.sleep(0.2)
    raise ValueError(f"{what} need {wanted} CPUs but the Ray cluster has {free:g} free "
                     f"({total:g} in all): ask for at most {int(free)}, or add machines "
                     "with `ray start --address`")

"""A bot server running on a thread of the test process, for the tests that talk to one."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from interfaces.server import BotServer, make_server
from interfaces.service import BotService


@contextmanager
def running_server(agent: str = "equity", **limits: Any) -> Iterator[BotServer]:
    """``make_server`` for ``agent`` on a free port, served on a thread until the block
    ends (``limits``: ``max_connections``, ``request_seconds``)."""
    server = make_server(BotService(agent), port=0, **limits)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)

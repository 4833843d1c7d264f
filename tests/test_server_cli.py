"""the HTTP server (interfaces/server.py) and the `teenpatti serve` /
`teenpatti match` commands (interfaces/cli/).

Each test was an adversarial review's reproducer of a defect, now fixed.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from builders.server import running_server

from interfaces.cli import main
from interfaces.server import BotServer

ROOT = Path(__file__).resolve().parents[1]
BODY = (ROOT / "docs" / "examples" / "request.json").read_bytes()


@pytest.fixture()
def server() -> Iterator[BotServer]:
    with running_server("equity") as bot_server:
        yield bot_server


def raw(server: BotServer, data: bytes, wait: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes, read to the end: (status, headers, body)."""
    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=wait) as conn:
        conn.sendall(data)
        out = b""
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            out += chunk
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def test_a_content_length_lie_is_a_client_error(server, monkeypatch) -> None:
    monkeypatch.setattr(server, "request_seconds", 1.0)  # the default is 10 s; same path
    request = (b"POST /v1/act HTTP/1.0\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n" % (len(BODY) + 1000)) + BODY
    status, _, body = raw(server, request)
    assert 400 <= status < 500, (status, body)
    assert json.loads(body)["error"]["code"] != "agent_error"


@pytest.mark.parametrize("method", ["OPTIONS", "PATCH"])
def test_other_methods_get_a_json_405(server, method: str) -> None:
    status, headers, body = raw(server, f"{method} /v1/act HTTP/1.0\r\n\r\n".encode())
    assert status == 405, (status, body[:80])
    assert headers["content-type"].startswith("application/json")
    assert json.loads(body)["error"]["code"] == "method_not_allowed"


def test_serve_on_a_port_out_of_range_is_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "teenpatti_env", "serve", "--agent", "equity",
         "--port", "70000"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr[-300:]
    assert done.stderr.startswith("teenpatti: ") and done.stderr.count("\n") == 1


def test_match_out_naming_a_folder_is_one_line(tmp_path, capsys) -> None:
    status = main(["match", "--agents", "equity,hard,medium", "--hands", "1",
                   "--out", str(tmp_path)])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("teenpatti: ") and err.count("\n") == 1

"""How fast a served bot answers: requests per second and latency over HTTP, against the
same agent answering the same requests in-process.

    python benchmarks/bench_serve.py [--agent pretrained:classic] [--requests 2000]
                                     [--clients 4]

The server runs as its own process (``teenpatti serve --port 0``); the requests are real
decisions from seeded hands, sent by ``--clients`` threads over fresh connections.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from typing import Any

import numpy as np

from agents import make_agent
from agents.loop import agent_turns, play_out
from interfaces.service import BotService
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.protocol import make_request


def decisions(count: int, seed: int = 0) -> list[bytes]:
    """``count`` requests from hands played by the equity agent."""
    env = raw_env()
    agent = make_agent("equity", seed=seed)
    decide = agent_turns(env, dict.fromkeys(env.possible_agents, agent))
    out: list[bytes] = []

    def turn(name: str) -> int:
        out.append(json.dumps(make_request(env.view(name), id=len(out))).encode())
        return decide(name)

    episode = 0
    while len(out) < count:
        env.reset(seed=seed + episode)
        episode += 1
        play_out(env, turn)
    return out[:count]


def start_server(agent: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "teenpatti_env", "serve", "--agent", agent, "--port", "0"],
        stdout=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    url = line.split("POST ", 1)[1].split("/v1/act", 1)[0]
    return process, url


def over_http(url: str, bodies: list[bytes], clients: int) -> tuple[float, list[float]]:
    latencies: list[float] = []
    lock = threading.Lock()

    def send(share: list[bytes]) -> None:
        mine = []
        for body in share:
            request = urllib.request.Request(url + "/v1/act", body,
                                             {"Content-Type": "application/json"})
            started = time.perf_counter()
            with urllib.request.urlopen(request, timeout=30) as answer:
                assert answer.status == 200
                answer.read()
            mine.append(time.perf_counter() - started)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=send, args=(bodies[k::clients],)) for k in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="pretrained:classic")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    bodies = decisions(args.requests)
    service = BotService(args.agent)
    started = time.perf_counter()
    for body in bodies:
        status, _ = service.answer(body)
        assert status == 200
    local = time.perf_counter() - started
    process, url = start_server(args.agent)
    try:
        seconds, latencies = over_http(url, bodies, args.clients)
    finally:
        process.terminate()
        process.wait()
    quantiles: Any = np.percentile(np.array(latencies) * 1000, [50, 99])
    print(f"agent {args.agent}, {args.requests} requests (real decisions, classic, 4 seats)")
    print(f"in-process BotService.answer: {args.requests / local:,.0f} requests/s "
          f"({local / args.requests * 1e6:,.0f} us each: checking, observation, decision)")
    print(f"over HTTP, {args.clients} clients: {args.requests / seconds:,.0f} requests/s; "
          f"latency median {quantiles[0]:.2f} ms, 99th percentile {quantiles[1]:.2f} ms, "
          f"mean {statistics.fmean(latencies) * 1000:.2f} ms")
    print(f"HTTP / in-process throughput: {local / seconds:.2f}")


if __name__ == "__main__":
    main()

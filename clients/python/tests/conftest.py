"""A real stack for the tests: test/support/python-stack.ts (simulator, worker, API, test Redis), started once per run."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest

from market_signals import Client

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def stack() -> Iterator[dict[str, Any]]:
    node = os.environ.get("NODE", "node")
    process = subprocess.Popen(
        [node, "--import", "tsx", "test/support/python-stack.ts"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None and process.stdin is not None
    line = process.stdout.readline()
    if not line:
        raise RuntimeError(f"the stack did not start (exit {process.wait()})")
    info = json.loads(line)
    info["node"] = node
    yield info
    process.stdin.close()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.terminate()
        process.wait()


@pytest.fixture()
def client(stack: dict[str, Any]) -> Iterator[Client]:
    with Client(stack["apiUrl"]) as anonymous:
        yield anonymous

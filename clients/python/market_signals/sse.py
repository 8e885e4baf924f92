"""Server-sent events: a small parser over httpx's lines, and the event type the streams yield."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    """One event: its `id` (resume after it with `last_event_id`), its kind and its JSON data."""

    id: str | None
    event: str
    data: Any


class _Parser:
    def __init__(self) -> None:
        self.id: str | None = None
        self.event = "message"
        self.data: list[str] = []

    def feed(self, line: str) -> Event | None:
        if line == "":
            if not self.data:
                self.event = "message"
                return None
            text = "\n".join(self.data)
            event = Event(self.id, self.event, json.loads(text) if text[:1] in "{[" else text)
            self.event, self.data = "message", []
            return event
        if line.startswith(":"):
            return None
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id":
            self.id = value
        elif field == "event":
            self.event = value
        elif field == "data":
            self.data.append(value)
        return None


def parse(lines: Iterator[str]) -> Iterator[Event]:
    parser = _Parser()
    for line in lines:
        event = parser.feed(line)
        if event is not None:
            yield event


async def aparse(lines: AsyncIterator[str]) -> AsyncIterator[Event]:
    parser = _Parser()
    async for line in lines:
        event = parser.feed(line)
        if event is not None:
            yield event

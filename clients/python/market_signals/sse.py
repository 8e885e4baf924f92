"""Server-sent events: a parser over httpx's lines, the event type the streams yield, and where a stream resumes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional

# Before the server's `retry:` hint arrives: what browsers wait.
DEFAULT_RETRY_SECONDS = 3.0


@dataclass(frozen=True)
class Event:
    """One event: its `id` (resume after it with `last_event_id`), its kind and its JSON data."""

    id: str | None
    event: str
    data: Any


class EventReader:
    """Turns lines into events, and remembers what a reconnection needs: the last event id and the server's `retry:`."""

    def __init__(self, last_event_id: Optional[str] = None) -> None:
        self.last_event_id = last_event_id
        self.retry_seconds = DEFAULT_RETRY_SECONDS
        self._restart()

    def _restart(self) -> None:
        self._id: str | None = None
        self._event = "message"
        self._data: list[str] = []

    def headers(self) -> dict[str, str]:
        """A (re)connection's headers: Last-Event-ID once an event had an id."""
        return {"Accept": "text/event-stream", **({"Last-Event-ID": self.last_event_id} if self.last_event_id else {})}

    def reconnected(self) -> None:
        """A new connection: an event half read on the old one is dropped (the server sends it again)."""
        self._restart()

    def feed(self, line: str) -> Event | None:
        if line == "":
            if not self._data:
                self._event = "message"
                return None
            text = "\n".join(self._data)
            event = Event(self._id, self._event, json.loads(text) if text[:1] in "{[" else text)
            if self._id:
                self.last_event_id = self._id
            self._event, self._data = "message", []
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            self._id = value or None
        elif name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "retry" and value.isdigit():
            self.retry_seconds = int(value) / 1000
        return None

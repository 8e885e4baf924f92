"""Client and AsyncClient: the operations of calls.py sent with httpx, and the iterators over pages and streams."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any, Optional, TypeVar

import httpx

from . import models as m
from .calls import Call, Operations, more_news
from .errors import raise_for_answer
from .sse import Event, EventReader

T = TypeVar("T")
# A stream waits as long as it must between events (keep-alive comments come every 15 s).
_STREAMING = httpx.Timeout(30.0, read=None)
# A connection the server or the network ended: a stream resumes after it.
_DROPPED = (httpx.RemoteProtocolError, httpx.ReadError)


class Client(Operations):
    """Synchronous client. `Client(url, api_key=...)`, or `client.login(email, password)` for a JWT."""

    def __init__(self, base_url: str, *, api_key: Optional[str] = None, token: Optional[str] = None, timeout: float = 30.0) -> None:
        super().__init__(base_url, api_key=api_key, token=token)
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _send(self, call: Call[T]) -> T:
        response = self._http.request(call.method, call.path, params=call.params, json=call.json, headers=self._headers(call))
        return call.parse(response)

    def iter_news(self, *, limit: int = 50, token: Optional[str] = None) -> Iterator[m.NewsItem]:
        """Every post of the current news snapshot, page after page, newest first."""
        page = 1
        while True:
            answer = self.news(page=page, limit=limit, token=token)
            yield from answer.data
            if not more_news(answer):
                return
            page += 1

    def export(self, *, from_: str, to: Optional[str] = None, kinds: Optional[list[str]] = None, format: str = "ndjson") -> Iterator[str]:
        """The stored states of a range, one NDJSON line (or CSV row) at a time, streamed."""
        call = self._export_call(from_, to, kinds, format)
        with self._http.stream(call.method, call.path, params=call.params, headers=self._headers(call), timeout=_STREAMING) as response:
            if response.status_code >= 400:
                response.read()
                raise_for_answer(response)
            yield from (line for line in response.iter_lines() if line)

    def stream(self, *, topics: Optional[list[str]] = None, last_event_id: Optional[str] = None, reconnect: bool = True) -> Iterator[Event]:
        """GET /api/market/stream's events; a dropped connection resumes after the last event seen (Last-Event-ID)."""
        return self._events(self._market_stream_call(topics), EventReader(last_event_id), reconnect)

    def alert_stream(self, *, last_event_id: Optional[str] = None, reconnect: bool = True) -> Iterator[Event]:
        """GET /api/alerts/stream's events (the caller's alerts), resumed the same way."""
        return self._events(self._alert_stream_call(), EventReader(last_event_id), reconnect)

    def _events(self, call: Call[Any], reader: EventReader, reconnect: bool) -> Iterator[Event]:
        while True:
            headers = {**self._headers(call), **reader.headers()}
            try:
                with self._http.stream(call.method, call.path, params=call.params, headers=headers, timeout=_STREAMING) as response:
                    if response.status_code >= 400:
                        response.read()
                        raise_for_answer(response)
                    for line in response.iter_lines():
                        event = reader.feed(line)
                        if event is not None:
                            yield event
            except _DROPPED:
                if not reconnect:
                    raise
            if not reconnect:
                return
            time.sleep(reader.retry_seconds)
            reader.reconnected()


class AsyncClient(Operations):
    """The same operations, awaited: `async with AsyncClient(url) as client: await client.trending()`."""

    def __init__(self, base_url: str, *, api_key: Optional[str] = None, token: Optional[str] = None, timeout: float = 30.0) -> None:
        super().__init__(base_url, api_key=api_key, token=token)
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def _send(self, call: Call[T]) -> T:
        response = await self._http.request(call.method, call.path, params=call.params, json=call.json, headers=self._headers(call))
        return call.parse(response)

    async def iter_news(self, *, limit: int = 50, token: Optional[str] = None) -> AsyncIterator[m.NewsItem]:
        """Every post of the current news snapshot, page after page, newest first."""
        page = 1
        while True:
            answer = await self.news(page=page, limit=limit, token=token)
            for item in answer.data:
                yield item
            if not more_news(answer):
                return
            page += 1

    async def export(self, *, from_: str, to: Optional[str] = None, kinds: Optional[list[str]] = None, format: str = "ndjson") -> AsyncIterator[str]:
        """The stored states of a range, one NDJSON line (or CSV row) at a time, streamed."""
        call = self._export_call(from_, to, kinds, format)
        async with self._http.stream(call.method, call.path, params=call.params, headers=self._headers(call), timeout=_STREAMING) as response:
            if response.status_code >= 400:
                await response.aread()
                raise_for_answer(response)
            async for line in response.aiter_lines():
                if line:
                    yield line

    def stream(self, *, topics: Optional[list[str]] = None, last_event_id: Optional[str] = None, reconnect: bool = True) -> AsyncIterator[Event]:
        """GET /api/market/stream's events; a dropped connection resumes after the last event seen (Last-Event-ID)."""
        return self._events(self._market_stream_call(topics), EventReader(last_event_id), reconnect)

    def alert_stream(self, *, last_event_id: Optional[str] = None, reconnect: bool = True) -> AsyncIterator[Event]:
        """GET /api/alerts/stream's events (the caller's alerts), resumed the same way."""
        return self._events(self._alert_stream_call(), EventReader(last_event_id), reconnect)

    async def _events(self, call: Call[Any], reader: EventReader, reconnect: bool) -> AsyncIterator[Event]:
        while True:
            headers = {**self._headers(call), **reader.headers()}
            try:
                async with self._http.stream(call.method, call.path, params=call.params, headers=headers, timeout=_STREAMING) as response:
                    if response.status_code >= 400:
                        await response.aread()
                        raise_for_answer(response)
                    async for line in response.aiter_lines():
                        event = reader.feed(line)
                        if event is not None:
                            yield event
            except _DROPPED:
                if not reconnect:
                    raise
            if not reconnect:
                return
            await asyncio.sleep(reader.retry_seconds)
            reader.reconnected()

"""Client and AsyncClient: one method per REST operation, named as its operationId in snake_case."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, Optional, TypeVar

import httpx

from . import models as m
from .errors import raise_for_answer
from .sse import Event, aparse, parse

T = TypeVar("T", bound=m.Model)
Params = dict[str, Any]


def _query(**values: Any) -> Params:
    return {name: value for name, value in values.items() if value is not None}


class _Base:
    """What both clients share: the base URL, the credential (a JWT or an API key) and each operation's request."""

    def __init__(self, base_url: str, *, api_key: Optional[str] = None, token: Optional[str] = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.token = token

    def _headers(self, extra: Optional[dict[str, str]] = None) -> dict[str, str]:
        headers = dict(extra or {})
        if self.api_key:
            headers["X-Api-Key"] = self.api_key
        elif self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    # (method, path, model, query/body) per operation; the clients send them.
    @staticmethod
    def _ops() -> None:  # pragma: no cover - documentation only
        """Each public method below builds one request and parses its answer into the model named in /openapi.json."""


class Client(_Base):
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

    def _send(self, method: str, path: str, model: Optional[type[T]] = None, *, params: Optional[Params] = None, json: Any = None) -> Any:
        response = self._http.request(method, path, params=params, json=json, headers=self._headers())
        raise_for_answer(response)
        if model is None:
            return response.json() if response.content else None
        return model.model_validate(response.json())

    # Auth and keys
    def login(self, email: str, password: str) -> m.LoginResponse:
        answer = self._send("POST", "/api/auth/login", m.LoginResponse, json={"email": email, "password": password})
        self.token, self.api_key = answer.token, None
        return answer

    def me(self) -> m.Me:
        return self._send("GET", "/api/auth/me", m.Me)

    def usage(self) -> m.Usage:
        return self._send("GET", "/api/auth/usage", m.Usage)

    # Market reads
    def trending(self, *, at: Optional[str] = None, window: Optional[str] = None) -> m.TrendingTokenList:
        return self._send("GET", "/api/market/trending", m.TrendingTokenList, params=_query(at=at, window=window))

    def trending_cas(self, *, at: Optional[str] = None, window: Optional[str] = None) -> m.TrendingCaList:
        return self._send("GET", "/api/market/trending-cas", m.TrendingCaList, params=_query(at=at, window=window))

    def news(self, *, page: Optional[int] = None, limit: Optional[int] = None, token: Optional[str] = None) -> m.NewsPage:
        return self._send("GET", "/api/market/news", m.NewsPage, params=_query(page=page, limit=limit, token=token))

    def iter_news(self, *, limit: int = 50, token: Optional[str] = None) -> Iterator[m.NewsItem]:
        """Every post of the current news snapshot, page after page, newest first."""
        page = 1
        while True:
            answer = self.news(page=page, limit=limit, token=token)
            if not answer.data:
                return
            yield from answer.data
            page += 1

    def username_stats(self, username: str) -> m.UsernameStats:
        return self._send("GET", f"/api/market/stats/{username}", m.UsernameStats)

    def token_sentiment(self, token: str) -> m.SentimentRecord:
        return self._send("GET", f"/api/market/sentiment/{token}", m.SentimentRecord)

    def sentiment_history(self, token: str, *, interval: Optional[str] = None, from_: Optional[str] = None, to: Optional[str] = None) -> m.SentimentHistory:
        return self._send("GET", f"/api/market/sentiment/{token}/history", m.SentimentHistory, params=_query(interval=interval, **{"from": from_}, to=to))

    def token_history(self, token: str, *, interval: Optional[str] = None, from_: Optional[str] = None, to: Optional[str] = None) -> m.TokenHistory:
        return self._send("GET", f"/api/market/tokens/{token}/history", m.TokenHistory, params=_query(interval=interval, **{"from": from_}, to=to))

    def mindshare(self, *, window: Optional[str] = None) -> m.MindshareList:
        return self._send("GET", "/api/market/mindshare", m.MindshareList, params=_query(window=window))

    def token_mindshare(self, token: str, *, window: Optional[str] = None, interval: Optional[str] = None) -> m.TokenMindshare:
        return self._send("GET", f"/api/market/tokens/{token}/mindshare", m.TokenMindshare, params=_query(window=window, interval=interval))

    def pairlist(self, *, source: Optional[str] = None, window: Optional[str] = None, top: Optional[int] = None, quote: Optional[str] = None, exclude: Optional[list[str]] = None) -> m.Pairlist:
        return self._send("GET", "/api/market/pairlist", m.Pairlist, params=_query(source=source, window=window, top=top, quote=quote, exclude=",".join(exclude) if exclude else None))

    def export(self, *, from_: str, to: Optional[str] = None, kinds: Optional[list[str]] = None, format: str = "ndjson") -> Iterator[str]:
        """The stored states of a range, one NDJSON line (or CSV row) at a time, streamed."""
        params = _query(**{"from": from_}, to=to, kinds=",".join(kinds) if kinds else None, format=format)
        with self._http.stream("GET", "/api/export", params=params, headers=self._headers()) as response:
            if response.status_code >= 400:
                response.read()
                raise_for_answer(response)
            yield from (line for line in response.iter_lines() if line)

    # Alerts
    def create_alert(self, rule: dict[str, Any]) -> m.CreatedAlert:
        return self._send("POST", "/api/alerts", m.CreatedAlert, json=rule)

    def list_alerts(self) -> m.AlertList:
        return self._send("GET", "/api/alerts", m.AlertList)

    def get_alert(self, alert_id: str) -> m.AlertRule:
        return self._send("GET", f"/api/alerts/{alert_id}", m.AlertRule)

    def update_alert(self, alert_id: str, changes: dict[str, Any]) -> m.AlertRule:
        return self._send("PATCH", f"/api/alerts/{alert_id}", m.AlertRule, json=changes)

    def delete_alert(self, alert_id: str) -> None:
        self._send("DELETE", f"/api/alerts/{alert_id}")

    def rotate_alert_secret(self, alert_id: str) -> m.CreatedAlert:
        return self._send("POST", f"/api/alerts/{alert_id}/secret", m.CreatedAlert)

    def test_alert(self, alert_id: str) -> m.TestQueued:
        return self._send("POST", f"/api/alerts/{alert_id}/test", m.TestQueued)

    def alert_deliveries(self, alert_id: str) -> m.DeliveryList:
        return self._send("GET", f"/api/alerts/{alert_id}/deliveries", m.DeliveryList)

    # Live streams
    def stream(self, *, topics: Optional[list[str]] = None, last_event_id: Optional[str] = None, reconnect: bool = True) -> Iterator[Event]:
        """GET /api/market/stream's events; a dropped connection resumes after the last event seen (Last-Event-ID)."""
        return self._events("/api/market/stream", _query(topics=",".join(topics) if topics else None), last_event_id, reconnect)

    def alert_stream(self, *, last_event_id: Optional[str] = None, reconnect: bool = True) -> Iterator[Event]:
        """GET /api/alerts/stream's events (the caller's alerts), resumed the same way."""
        return self._events("/api/alerts/stream", {}, last_event_id, reconnect)

    def _events(self, path: str, params: Params, last_event_id: Optional[str], reconnect: bool) -> Iterator[Event]:
        while True:
            headers = self._headers({"Accept": "text/event-stream", **({"Last-Event-ID": last_event_id} if last_event_id else {})})
            try:
                with self._http.stream("GET", path, params=params, headers=headers, timeout=httpx.Timeout(30.0, read=None)) as response:
                    if response.status_code >= 400:
                        response.read()
                        raise_for_answer(response)
                    for event in parse(response.iter_lines()):
                        if event.id:
                            last_event_id = event.id
                        yield event
            except (httpx.RemoteProtocolError, httpx.ReadError):
                if not reconnect:
                    raise
            if not reconnect:
                return


class AsyncClient(_Base):
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

    async def _send(self, method: str, path: str, model: Optional[type[T]] = None, *, params: Optional[Params] = None, json: Any = None) -> Any:
        response = await self._http.request(method, path, params=params, json=json, headers=self._headers())
        raise_for_answer(response)
        if model is None:
            return response.json() if response.content else None
        return model.model_validate(response.json())

    async def login(self, email: str, password: str) -> m.LoginResponse:
        answer = await self._send("POST", "/api/auth/login", m.LoginResponse, json={"email": email, "password": password})
        self.token, self.api_key = answer.token, None
        return answer

    async def me(self) -> m.Me:
        return await self._send("GET", "/api/auth/me", m.Me)

    async def trending(self, *, at: Optional[str] = None, window: Optional[str] = None) -> m.TrendingTokenList:
        return await self._send("GET", "/api/market/trending", m.TrendingTokenList, params=_query(at=at, window=window))

    async def trending_cas(self, *, at: Optional[str] = None, window: Optional[str] = None) -> m.TrendingCaList:
        return await self._send("GET", "/api/market/trending-cas", m.TrendingCaList, params=_query(at=at, window=window))

    async def news(self, *, page: Optional[int] = None, limit: Optional[int] = None, token: Optional[str] = None) -> m.NewsPage:
        return await self._send("GET", "/api/market/news", m.NewsPage, params=_query(page=page, limit=limit, token=token))

    async def iter_news(self, *, limit: int = 50, token: Optional[str] = None) -> AsyncIterator[m.NewsItem]:
        page = 1
        while True:
            answer = await self.news(page=page, limit=limit, token=token)
            if not answer.data:
                return
            for item in answer.data:
                yield item
            page += 1

    async def token_sentiment(self, token: str) -> m.SentimentRecord:
        return await self._send("GET", f"/api/market/sentiment/{token}", m.SentimentRecord)

    async def mindshare(self, *, window: Optional[str] = None) -> m.MindshareList:
        return await self._send("GET", "/api/market/mindshare", m.MindshareList, params=_query(window=window))

    async def pairlist(self, *, source: Optional[str] = None, window: Optional[str] = None, top: Optional[int] = None, quote: Optional[str] = None, exclude: Optional[list[str]] = None) -> m.Pairlist:
        return await self._send("GET", "/api/market/pairlist", m.Pairlist, params=_query(source=source, window=window, top=top, quote=quote, exclude=",".join(exclude) if exclude else None))

    async def stream(self, *, topics: Optional[list[str]] = None, last_event_id: Optional[str] = None) -> AsyncIterator[Event]:
        """GET /api/market/stream's events from `last_event_id` on (one connection)."""
        headers = self._headers({"Accept": "text/event-stream", **({"Last-Event-ID": last_event_id} if last_event_id else {})})
        params = _query(topics=",".join(topics) if topics else None)
        async with self._http.stream("GET", "/api/market/stream", params=params, headers=headers, timeout=httpx.Timeout(30.0, read=None)) as response:
            if response.status_code >= 400:
                await response.aread()
                raise_for_answer(response)
            async for event in aparse(response.aiter_lines()):
                yield event

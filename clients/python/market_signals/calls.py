"""Every REST operation written once, as a description of its request (a Call); Client and AsyncClient only send them.

An operation is a method returning a Call. The `operation` decorator makes it, on a client, a method that builds
the Call and hands it to the client's `_send`: httpx.Client's answer for Client, an awaitable one for AsyncClient.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Concatenate, Generic, Optional, ParamSpec, TypeVar, cast, overload

import httpx

from . import models as m
from .errors import raise_for_answer

if TYPE_CHECKING:
    from .client import AsyncClient, Client

T = TypeVar("T")
P = ParamSpec("P")
Params = dict[str, Any]


def query(**values: Any) -> Params:
    """The parameters given (None is "not given"); lists are sent comma-separated, as the API reads them."""
    return {name: ",".join(value) if isinstance(value, list) else value for name, value in values.items() if value is not None}


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request and what its answer parses into: `answer` is the model, or None for an empty answer."""

    method: str
    path: str
    answer: Optional[type[m.Model]] = None
    params: Params = field(default_factory=dict)
    json: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    # Run on the parsed answer (login keeps its token).
    then: Optional[Callable[[Any], None]] = None

    def parse(self, response: httpx.Response) -> T:
        raise_for_answer(response)
        answer: Any = None
        if self.answer is not None:
            answer = self.answer.model_validate(response.json())
        if self.then is not None:
            self.then(answer)
        return cast(T, answer)


class operation(Generic[P, T]):  # noqa: N801 - used as a decorator, like property
    """Makes a Call-building method an operation of both clients (typed: T from Client, Awaitable[T] from AsyncClient)."""

    def __init__(self, build: Callable[Concatenate[Any, P], Call[T]]) -> None:
        self._build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, client: None, owner: type) -> "operation[P, T]": ...
    @overload
    def __get__(self, client: "AsyncClient", owner: type) -> Callable[P, Awaitable[T]]: ...
    @overload
    def __get__(self, client: "Client", owner: type) -> Callable[P, T]: ...
    def __get__(self, client: Any, owner: type) -> Any:
        if client is None:
            return self
        build = self._build

        @functools.wraps(build)
        def send(*args: P.args, **kwargs: P.kwargs) -> Any:
            return client._send(build(client, *args, **kwargs))

        return send


class Operations:
    """The credential (a JWT or an API key) and one method per operation, named as its operationId in snake_case."""

    def __init__(self, base_url: str, *, api_key: Optional[str] = None, token: Optional[str] = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.token = token

    def _headers(self, call: Call[Any]) -> dict[str, str]:
        headers = dict(call.headers)
        if self.api_key:
            headers["X-Api-Key"] = self.api_key
        elif self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    # Auth and keys
    @operation
    def login(self, email: str, password: str) -> Call[m.LoginResponse]:
        """Logs in: later calls carry the JWT (instead of an API key)."""

        def keep(answer: m.LoginResponse) -> None:
            self.token, self.api_key = answer.token, None

        return Call("POST", "/api/auth/login", m.LoginResponse, json={"email": email, "password": password}, then=keep)

    @operation
    def me(self) -> Call[m.Me]:
        return Call("GET", "/api/auth/me", m.Me)

    @operation
    def usage(self) -> Call[m.Usage]:
        return Call("GET", "/api/auth/usage", m.Usage)

    # Market reads
    @operation
    def trending(self, *, at: Optional[str] = None, window: Optional[str] = None) -> Call[m.TrendingTokenList]:
        return Call("GET", "/api/market/trending", m.TrendingTokenList, query(at=at, window=window))

    @operation
    def trending_cas(self, *, at: Optional[str] = None, window: Optional[str] = None) -> Call[m.TrendingCaList]:
        return Call("GET", "/api/market/trending-cas", m.TrendingCaList, query(at=at, window=window))

    @operation
    def news(self, *, page: Optional[int] = None, limit: Optional[int] = None, token: Optional[str] = None) -> Call[m.NewsPage]:
        return Call("GET", "/api/market/news", m.NewsPage, query(page=page, limit=limit, token=token))

    @operation
    def username_stats(self, username: str) -> Call[m.UsernameStats]:
        return Call("GET", f"/api/market/stats/{username}", m.UsernameStats)

    @operation
    def token_sentiment(self, token: str) -> Call[m.SentimentRecord]:
        return Call("GET", f"/api/market/sentiment/{token}", m.SentimentRecord)

    @operation
    def sentiment_history(self, token: str, *, interval: Optional[str] = None, from_: Optional[str] = None, to: Optional[str] = None) -> Call[m.SentimentHistory]:
        return Call("GET", f"/api/market/sentiment/{token}/history", m.SentimentHistory, query(interval=interval, **{"from": from_}, to=to))

    @operation
    def token_history(self, token: str, *, interval: Optional[str] = None, from_: Optional[str] = None, to: Optional[str] = None) -> Call[m.TokenHistory]:
        return Call("GET", f"/api/market/tokens/{token}/history", m.TokenHistory, query(interval=interval, **{"from": from_}, to=to))

    @operation
    def mindshare(self, *, window: Optional[str] = None) -> Call[m.MindshareList]:
        return Call("GET", "/api/market/mindshare", m.MindshareList, query(window=window))

    @operation
    def token_mindshare(self, token: str, *, window: Optional[str] = None, interval: Optional[str] = None) -> Call[m.TokenMindshare]:
        return Call("GET", f"/api/market/tokens/{token}/mindshare", m.TokenMindshare, query(window=window, interval=interval))

    @operation
    def callers(self, *, window: Optional[str] = None, sort: Optional[str] = None, min_calls: Optional[int] = None, at: Optional[str] = None) -> Call[m.CallersLeaderboard]:
        return Call("GET", "/api/market/callers", m.CallersLeaderboard, query(window=window, sort=sort, minCalls=min_calls, at=at))

    @operation
    def token_callers(self, token: str, *, window: Optional[str] = None, at: Optional[str] = None) -> Call[m.TokenCallers]:
        return Call("GET", f"/api/market/tokens/{token}/callers", m.TokenCallers, query(window=window, at=at))

    @operation
    def stories(self, *, window: Optional[str] = None, token: Optional[str] = None, at: Optional[str] = None) -> Call[m.StoryList]:
        return Call("GET", "/api/market/stories", m.StoryList, query(window=window, token=token, at=at))

    @operation
    def story(self, story_id: str) -> Call[m.StoryDetail]:
        return Call("GET", f"/api/market/stories/{story_id}", m.StoryDetail)

    @operation
    def pairlist(self, *, source: Optional[str] = None, window: Optional[str] = None, top: Optional[int] = None, quote: Optional[str] = None, exclude: Optional[list[str]] = None) -> Call[m.Pairlist]:
        return Call("GET", "/api/market/pairlist", m.Pairlist, query(source=source, window=window, top=top, quote=quote, exclude=exclude or None))

    # Alerts
    @operation
    def create_alert(self, rule: dict[str, Any]) -> Call[m.CreatedAlert]:
        return Call("POST", "/api/alerts", m.CreatedAlert, json=rule)

    @operation
    def list_alerts(self) -> Call[m.AlertList]:
        return Call("GET", "/api/alerts", m.AlertList)

    @operation
    def get_alert(self, alert_id: str) -> Call[m.AlertRule]:
        return Call("GET", f"/api/alerts/{alert_id}", m.AlertRule)

    @operation
    def update_alert(self, alert_id: str, changes: dict[str, Any]) -> Call[m.AlertRule]:
        return Call("PATCH", f"/api/alerts/{alert_id}", m.AlertRule, json=changes)

    @operation
    def delete_alert(self, alert_id: str) -> Call[None]:
        return Call("DELETE", f"/api/alerts/{alert_id}")

    @operation
    def rotate_alert_secret(self, alert_id: str) -> Call[m.CreatedAlert]:
        return Call("POST", f"/api/alerts/{alert_id}/secret", m.CreatedAlert)

    @operation
    def test_alert(self, alert_id: str) -> Call[m.TestQueued]:
        return Call("POST", f"/api/alerts/{alert_id}/test", m.TestQueued)

    @operation
    def alert_deliveries(self, alert_id: str) -> Call[m.DeliveryList]:
        return Call("GET", f"/api/alerts/{alert_id}/deliveries", m.DeliveryList)

    # The streamed answers: each client reads them its own way (iterators), from these requests.
    @staticmethod
    def _export_call(from_: str, to: Optional[str], kinds: Optional[list[str]], format: str) -> Call[None]:
        return Call("GET", "/api/export", params=query(**{"from": from_}, to=to, kinds=kinds or None, format=format))

    @staticmethod
    def _market_stream_call(topics: Optional[list[str]]) -> Call[None]:
        return Call("GET", "/api/market/stream", params=query(topics=topics or None))

    @staticmethod
    def _alert_stream_call() -> Call[None]:
        return Call("GET", "/api/alerts/stream")


def more_news(answer: m.NewsPage) -> bool:
    """Whether a page after this one has posts (saves the empty page's request)."""
    pagination = answer.pagination
    return bool(answer.data) and pagination["page"] * pagination["limit"] < pagination["total"]

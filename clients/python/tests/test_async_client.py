"""AsyncClient against the same real stack: every operation is there, the reads, alerts, typed errors, the export and the stream."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

from market_signals import AsyncClient, AuthError, BadRequestError, Client, NotFoundError, RateLimitedError
from market_signals import models as m

# Operations the clients leave out: the admin's, the MCP endpoint, probes, the document and its page, the unversioned alias.
NOT_CLIENT_OPERATIONS = {"adminRefresh", "mcp", "healthz", "readyz", "metrics", "openApiDocument", "docs", "tokenSentimentAlias"}


def snake(operation_id: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()


def test_both_clients_have_every_operation(stack: dict[str, Any]) -> None:
    document = httpx.get(f"{stack['apiUrl']}/openapi.json").json()
    operations = {op["operationId"] for item in document["paths"].values() for op in item.values() if isinstance(op, dict) and "operationId" in op}
    wanted = {snake(op) for op in operations - NOT_CLIENT_OPERATIONS}
    assert wanted - set(dir(Client)) == set()
    assert wanted - set(dir(AsyncClient)) == set()


@pytest.mark.asyncio
async def test_the_async_reads_match_the_sync_ones(stack: dict[str, Any], client: Client) -> None:
    async with AsyncClient(stack["apiUrl"], api_key=stack["apiKey"]) as aclient:
        assert (await aclient.me()).email == stack["email"]
        assert (await aclient.usage()).statsMisses["limit"] > 0
        trending, cas, news, mindshare, callers, stories, pairlist = await asyncio.gather(
            aclient.trending(), aclient.trending_cas(), aclient.news(limit=5), aclient.mindshare(window="7d"),
            aclient.callers(min_calls=0), aclient.stories(), aclient.pairlist(top=3, quote="USDT"),
        )
        token, author = trending.data[0].token, news.data[0].author
        history, sentiment, stats, token_share, token_callers = await asyncio.gather(
            aclient.token_history(token), aclient.sentiment_history(news.data[0].tokens[0]), aclient.username_stats(author),
            aclient.token_mindshare(token), aclient.token_callers(token),
        )
        posts = [post async for post in aclient.iter_news(limit=50)]
    assert trending == client.trending(at=trending.cachedAt)
    assert cas.data and isinstance(cas.data[0], m.TrendingCa)
    assert len(news.data) == 5
    assert mindshare.window == "7d"
    assert callers.minCalls == 0 and all(isinstance(caller, m.Caller) for caller in callers.data)
    assert isinstance(stories, m.StoryList)
    assert pairlist.pairs == [f"{item.token.upper()}/USDT" for item in trending.data[:3]]
    assert history.token == token_share.token == token_callers.token == token.upper()
    assert sentiment.token == news.data[0].tokens[0].upper()
    assert stats.username.lower() == author.lower() and isinstance(stats.calls, m.AccountCalls)
    assert len(posts) == client.news(limit=1).pagination["total"]
    assert len({post.id for post in posts}) == len(posts)
    assert stories.data, "the simulator's posts make stories"
    async with AsyncClient(stack["apiUrl"]) as anonymous:
        detail = await anonymous.story(stories.data[0].id)
    assert detail.data.id == stories.data[0].id and detail.data.scores


@pytest.mark.asyncio
async def test_async_typed_errors_carry_text_status_and_retry_after(stack: dict[str, Any]) -> None:
    async with AsyncClient(stack["apiUrl"]) as anonymous:
        with pytest.raises(BadRequestError) as bad:
            await anonymous.news(limit=0)
        assert (bad.value.status, bad.value.error) == (400, "Invalid query parameter: limit")
        with pytest.raises(NotFoundError):
            await anonymous.story("no-such-story")
        with pytest.raises(AuthError) as unauthorized:
            await anonymous.list_alerts()
        assert unauthorized.value.status == 401
        # The streamed answers raise the same errors before their first item.
        with pytest.raises(AuthError):
            [event async for event in anonymous.alert_stream(reconnect=False)]
    # A month of every kind costs 150 kind-days of the hourly 400: the third is refused, with the wait.
    month_ago = (datetime.now(timezone.utc) - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
    async with AsyncClient(stack["apiUrl"]) as user:
        await user.login(stack["email"], stack["password"])
        exported = [line async for line in user.export(from_=month_ago)]
        assert exported and all(line.startswith('{"kind":') for line in exported)
        [line async for line in user.export(from_=month_ago, format="csv")]
        with pytest.raises(RateLimitedError) as limited:
            [line async for line in user.export(from_=month_ago)]
    assert limited.value.status == 429 and limited.value.error.startswith("Export budget spent")
    assert limited.value.retry_after is not None and 0 < limited.value.retry_after <= 3600


@pytest.mark.asyncio
async def test_async_alerts_from_creation_to_deletion(stack: dict[str, Any]) -> None:
    async with AsyncClient(stack["apiUrl"]) as user:
        await user.login(stack["email"], stack["password"])
        created = await user.create_alert({
            "name": "BTC mentions",
            "condition": {"type": "sentiment-label", "token": "BTC", "to": "bullish"},
            "channels": [{"type": "webhook", "url": "http://127.0.0.1:9/hook"}],
        })
        assert created.secret.startswith("whsec_")
        renamed = await user.update_alert(created.id, {"name": "BTC turns bullish"})
        assert (await user.get_alert(created.id)).name == renamed.name == "BTC turns bullish"
        rotated = await user.rotate_alert_secret(created.id)
        assert rotated.secret != created.secret and rotated.secretRotation
        queued = await user.test_alert(created.id)
        assert queued.eventId
        assert isinstance(await user.alert_deliveries(created.id), m.DeliveryList)
        assert created.id in [rule.id for rule in (await user.list_alerts()).data]
        assert await user.delete_alert(created.id) is None
        with pytest.raises(NotFoundError):
            await user.get_alert(created.id)


@pytest.mark.asyncio
async def test_the_async_stream_resumes_after_last_event_id(stack: dict[str, Any]) -> None:
    async with AsyncClient(stack["apiUrl"]) as aclient:
        seen = []
        async for event in aclient.stream(last_event_id="1", reconnect=False):
            seen.append(event)
            if len({e.event for e in seen}) >= 5:
                break
        with_ids = [e for e in seen if e.id]
        assert with_ids, "replayed events carry ids"
        first = min(with_ids, key=lambda e: int(e.id or 0))
        later = [e for e in with_ids if int(e.id or 0) > int(first.id or 0)]
        resumed = []
        if later:
            async for event in aclient.stream(last_event_id=first.id, reconnect=False):
                resumed.append(event)
                if len(resumed) == len(later):
                    break
        assert sorted((e.id, e.event) for e in resumed) == sorted((e.id, e.event) for e in later)

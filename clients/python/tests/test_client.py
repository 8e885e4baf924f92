"""The client against a real stack: login, each read, an API key, an alert and its verified test event, the streams, the export, the pairlist."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import tempfile
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest

from market_signals import AuthError, BadRequestError, Client, NotFoundError, verify_webhook
from market_signals.webhooks import WebhookVerificationError

ROOT = Path(__file__).resolve().parents[3]


def test_login_then_me(stack: dict[str, Any], client: Client) -> None:
    answer = client.login(stack["email"], stack["password"])
    assert answer.expiresIn > 0
    assert client.me().email == stack["email"]


def test_a_wrong_password_is_a_typed_error(stack: dict[str, Any], client: Client) -> None:
    with pytest.raises(AuthError) as raised:
        client.login(stack["email"], "not-the-password")
    assert raised.value.status == 401 and raised.value.error


def test_an_api_key_acts_as_its_user(stack: dict[str, Any]) -> None:
    with Client(stack["apiUrl"], api_key=stack["apiKey"]) as keyed:
        assert keyed.me().email == stack["email"]
        assert keyed.usage().statsMisses["limit"] > 0


def test_each_read(client: Client) -> None:
    trending = client.trending()
    assert trending.data and trending.data[0].token
    assert client.trending(at=trending.cachedAt).data == trending.data
    assert client.trending_cas().data
    token = trending.data[0].token
    news = client.news(limit=5)
    assert len(news.data) == 5 and news.pagination["limit"] == 5
    record = client.token_sentiment(news.data[0].tokens[0])
    assert -1 <= record.score <= 1
    assert client.sentiment_history(record.token).token == record.token
    assert client.token_history(token).token == token.upper()
    assert client.mindshare(window="7d").window == "7d"
    assert client.token_mindshare(token).token == token.upper()
    assert client.username_stats(news.data[0].author).username.lower() == news.data[0].author.lower()
    with pytest.raises(BadRequestError) as raised:
        client.news(limit=0)
    assert raised.value.error == "Invalid query parameter: limit"
    with pytest.raises(NotFoundError):
        client.token_sentiment("NOSUCHTOKEN")


def test_news_pages_iterate_to_the_end(client: Client) -> None:
    total = client.news(limit=1).pagination["total"]
    assert len(list(client.iter_news(limit=50))) == total


def test_the_pairlist(client: Client) -> None:
    trending = client.trending()
    pairlist = client.pairlist(top=5, quote="USDT")
    assert pairlist.pairs == [f"{item.token.upper()}/USDT" for item in trending.data[:5]]
    assert pairlist.refresh_period >= 30


def test_the_stream_resumes_after_last_event_id(client: Client) -> None:
    seen = []
    for event in client.stream(last_event_id="1", reconnect=False):
        seen.append(event)
        if len({e.event for e in seen}) >= 5:
            break
    ids = sorted({int(e.id) for e in seen if e.id})
    assert ids, "replayed events carry ids"
    first = str(ids[0])
    later = [e for e in seen if e.id and int(e.id) > ids[0]]
    resumed = []
    if later:
        for event in client.stream(last_event_id=first, reconnect=False):
            resumed.append(event)
            if len(resumed) == len(later):
                break
        assert all(int(e.id or 0) > ids[0] for e in resumed)
        assert sorted((e.id, e.event) for e in resumed) == sorted((e.id, e.event) for e in later)


class _Receiver(http.server.BaseHTTPRequestHandler):
    received: list[tuple[dict[str, str], bytes]] = []
    arrived = threading.Event()

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        _Receiver.received.append(({k: v for k, v in self.headers.items()}, body))
        _Receiver.arrived.set()
        self.send_response(204)
        self.end_headers()

    def log_message(self, *_: Any) -> None:
        pass


def test_an_alert_test_event_arrives_signed(stack: dict[str, Any]) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with Client(stack["apiUrl"]) as user:
            user.login(stack["email"], stack["password"])
            created = user.create_alert({
                "name": "SOL turns bearish",
                "condition": {"type": "sentiment-label", "token": "SOL", "to": "bearish"},
                "channels": [{"type": "webhook", "url": f"http://127.0.0.1:{server.server_address[1]}/hook"}],
            })
            assert created.secret.startswith("whsec_")
            assert [rule.id for rule in user.list_alerts().data] == [created.id]
            queued = user.test_alert(created.id)
            assert _Receiver.arrived.wait(20), "the test event reached the receiver"
            headers, body = _Receiver.received[0]
            verify_webhook(created.secret, headers, body)
            assert headers.get("webhook-id") == queued.eventId or json.loads(body)
            with pytest.raises(WebhookVerificationError):
                verify_webhook(created.secret, headers, body + b" ")
            user.delete_alert(created.id)
    finally:
        server.shutdown()


def test_the_export_reads_back_with_pandas_and_pyarrow(stack: dict[str, Any]) -> None:
    start = (datetime.now(timezone.utc) - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    with Client(stack["apiUrl"], api_key=stack["apiKey"]) as keyed:
        lines = [json.loads(line) for line in keyed.export(from_=start)]
    assert {line["kind"] for line in lines} == {"trending", "trending-cas", "news", "sentiment", "mindshare"}
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, **stack["redisEnv"], "NODE_ENV": "test"}
        subprocess.run([stack["node"], "--import", "tsx", "scripts/export.ts", "--from", start, "--format", "parquet", "--out", out], cwd=ROOT, env=env, check=True, capture_output=True)
        manifest = json.loads((Path(out) / "manifest.json").read_text())
        frames = [pd.read_parquet(Path(out) / entry["file"]) for entry in manifest["files"]]
        table = pq.read_table(Path(out) / manifest["files"][0]["file"])
    assert table.column_names == ["kind", "id", "cachedAt", "state"]
    frame = pd.concat(frames)
    assert len(frame) == sum(manifest["rows"].values()) == len(lines)
    trending = frame[frame["kind"] == "trending"].iloc[0]
    assert json.loads(trending["state"])["cachedAt"] == pd.Timestamp(trending["cachedAt"]).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"

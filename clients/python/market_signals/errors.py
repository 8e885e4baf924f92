"""Typed errors: every non-2xx answer becomes an ApiError carrying the API's `error` text, the status and Retry-After."""

from __future__ import annotations

from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

import httpx


class ApiError(Exception):
    """An answer with a 4xx or 5xx status: `error` is the API's `{"error": ...}` text."""

    def __init__(self, status: int, error: str, retry_after: float | None = None) -> None:
        super().__init__(f"{status}: {error}")
        self.status = status
        self.error = error
        self.retry_after = retry_after


class BadRequestError(ApiError):
    """400, 413, 415: the request itself is wrong."""


class AuthError(ApiError):
    """401 or 403."""


class NotFoundError(ApiError):
    """404."""


class RateLimitedError(ApiError):
    """429: wait `retry_after` seconds."""


class UnavailableError(ApiError):
    """503 (or another 5xx): try again after `retry_after` seconds."""


_BY_STATUS: dict[int, type[ApiError]] = {400: BadRequestError, 401: AuthError, 403: AuthError, 404: NotFoundError, 413: BadRequestError, 415: BadRequestError, 429: RateLimitedError}


def _seconds(raw: str | None) -> float | None:
    """Retry-After as seconds: a number of seconds, or an HTTP date (RFC 9110 allows both)."""
    if raw is None:
        return None
    if raw.strip().isdigit():
        return float(raw)
    try:
        return max(0.0, (parsedate_to_datetime(raw) - datetime.now(timezone.utc)).total_seconds())
    except (TypeError, ValueError):
        return None


def raise_for_answer(response: httpx.Response) -> None:
    """Raises the typed error of a non-2xx answer; returns on 2xx and 304."""
    if response.status_code < 400:
        return
    try:
        body = response.json()
    except ValueError:
        body = None
    # A proxy's HTML page or another shape: the status line's text.
    error = str(body["error"]) if isinstance(body, dict) and "error" in body else response.reason_phrase
    kind = _BY_STATUS.get(response.status_code, UnavailableError if response.status_code >= 500 else ApiError)
    raise kind(response.status_code, error, _seconds(response.headers.get("retry-after")))

"""Typed errors: every non-2xx answer becomes an ApiError carrying the API's `error` text, the status and Retry-After."""

from __future__ import annotations

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


def raise_for_answer(response: httpx.Response) -> None:
    """Raises the typed error of a non-2xx answer; returns on 2xx and 304."""
    if response.status_code < 400:
        return
    try:
        error = str(response.json().get("error", response.reason_phrase))
    except ValueError:
        error = response.reason_phrase
    raw = response.headers.get("retry-after")
    retry_after = float(raw) if raw is not None and raw.isdigit() else None
    kind = _BY_STATUS.get(response.status_code, UnavailableError if response.status_code >= 500 else ApiError)
    raise kind(response.status_code, error, retry_after)

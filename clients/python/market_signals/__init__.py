"""market_signals: a typed client for the Market Signals API (see clients/python/README.md)."""

from .client import AsyncClient, Client
from .errors import ApiError, AuthError, BadRequestError, NotFoundError, RateLimitedError, UnavailableError
from .models import *  # noqa: F401,F403 - the answers' types
from .sse import Event
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "AsyncClient", "Client", "ApiError", "AuthError", "BadRequestError", "NotFoundError", "RateLimitedError",
    "UnavailableError", "Event", "WebhookVerificationError", "verify_webhook",
]

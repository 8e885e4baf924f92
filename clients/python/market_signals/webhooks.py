"""Verifies the alerts' webhooks (Standard Webhooks' scheme) with the standard library only."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections.abc import Mapping

TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """The webhook is not signed by this secret, or its timestamp is too far from now."""


def verify_webhook(secret: str, headers: Mapping[str, str], body: bytes | str, *, now: float | None = None) -> None:
    """Raises WebhookVerificationError unless `body` was signed with `secret` (`whsec_<base64>`) within 5 minutes.

    Signed content: `{webhook-id}.{webhook-timestamp}.{body}`; `webhook-signature` is a space-separated
    list of `v1,<base64 HMAC-SHA256>` (several while a secret is rotated).
    """
    lower = {name.lower(): value for name, value in headers.items()}
    msg_id, timestamp, signatures = lower.get("webhook-id"), lower.get("webhook-timestamp"), lower.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        sent = int(timestamp)
    except ValueError as error:
        raise WebhookVerificationError("webhook-timestamp is not a number") from error
    if abs((time.time() if now is None else now) - sent) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("webhook-timestamp is more than 5 minutes from now")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    payload = body.encode() if isinstance(body, str) else body
    expected = base64.b64encode(hmac.new(key, f"{msg_id}.{timestamp}.".encode() + payload, hashlib.sha256).digest()).decode()
    for signature in signatures.split(" "):
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return
    raise WebhookVerificationError("no signature matches")

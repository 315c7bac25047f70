"""The client's IP address, for rate limits and login lockouts.

REMOTE_ADDR by default. Behind a load balancer every request comes from the balancer, so the
address must come from the header it sets: name it in CLIENT_IP_HEADER (e.g. X-Forwarded-For or
X-Real-IP). Only name a header that your proxy always overwrites or appends to; a client can send
any header it likes, and trusting one the proxy passes through lets it pick its own address.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The address the limits count against: from the trusted header when configured, else REMOTE_ADDR."""
    header = getattr(settings, "CLIENT_IP_HEADER", "")
    if header:
        value = request.headers.get(header, "")
        # X-Forwarded-For is "client, proxy1, proxy2": each proxy appends the address it saw, so the
        # entry our own proxy wrote is counted from the right; entries further left are the client's
        # claims and can be forged.
        entries = [item.strip() for item in value.split(",") if item.strip()]
        count = max(1, int(getattr(settings, "CLIENT_IP_PROXY_COUNT", 1)))
        if len(entries) >= count:
            return entries[-count]
    return request.META.get("REMOTE_ADDR", "")


def axes_client_ip(request: HttpRequest) -> str | None:
    """django-axes' AXES_CLIENT_IP_CALLABLE: the same address as the rate limits use (None if none)."""
    return client_ip(request) or None


def ratelimit_key(group: str, request: HttpRequest) -> str:
    """django-ratelimit key function: one counter per client address."""
    return client_ip(request) or "unknown"

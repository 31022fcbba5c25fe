"""A request to this machine (a local model server, toolchoice mock): what a refused connection there means."""

from __future__ import annotations


def is_loopback(url: str) -> bool:
    """Whether ``url`` points at this machine (a local model server or toolchoice mock)."""
    from urllib.parse import urlsplit

    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return False
    return host in ("localhost", "::1") or host.startswith("127.")


def nothing_listens(display_url: str) -> str:
    """The words after a refused connection to this machine: no server was started there (send -p ollama without
    Ollama said only "All connection attempts failed")."""
    from urllib.parse import urlsplit

    at = urlsplit(display_url).netloc.rpartition("@")[2]
    return (f": nothing listens at {at} on this machine; start your server (or toolchoice mock) there, or give its "
            "address with --base-url / providers.<id>.base_url")

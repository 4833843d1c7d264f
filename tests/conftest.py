"""Fixtures several test files share: the bot servers on a thread (tests/builders/bot_http.py)."""

from builders.bot_http import equity_server, policy_server

__all__ = ["equity_server", "policy_server"]

# tests/bots holds programs the tests start, not modules to collect.
collect_ignore = ["bots"]

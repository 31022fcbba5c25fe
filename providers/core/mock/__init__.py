"""``toolchoice mock`` / ``toolchoice proxy``: a provider's API as toolchoice knows it, behind a socket.

``service`` answers one request (routing, judging with the translators' facts, the script, the reply);
``server`` serves it on asyncio streams; ``proxy`` judges in front of a real upstream. The per-family
parts (reading a body back, reply bodies, stream events, error envelopes) live beside each family's
translator, in ``providers/<module>_mock.py`` (``registry.mock_family``), as ``mock_route``, ``mock_read``,
``mock_reply``, ``mock_events``, ``mock_error`` and ``MOCK_BASE_PATH``, and ``MOCK_SECRETS`` where its bodies
carry what a client hands an MCP server (``body_secrets``: never kept nor echoed).
"""

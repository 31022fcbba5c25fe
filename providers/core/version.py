"""The one place the version is written: pyproject.toml reads it (``[tool.setuptools.dynamic]``), and the
User-Agent and --version print it without importlib.metadata, which took ~16 ms before a send's first
request. A module of its own, so the transport reads it without importing the package above it."""

__version__ = "0.1.0"

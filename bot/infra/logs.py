"""Structured logs: every line carries the game, channel, interaction and latency it is about, where known.

Code says what it is working on once, with :func:`bind` (for the rest of the current task: discord.py runs every
interaction in its own task, so fields never leak between interactions) or :func:`context` (for a block), or per line
with ``extra={"latency_ms": ...}``. ``AZUL_LOG_FORMAT=json`` prints one JSON object a line for log collectors.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TextIO

from bot.infra.config import redacted_url

_DATABASE_URL = re.compile(r"\bpostgres(?:ql)?://[^\s'\"<>]+", re.IGNORECASE)


def without_secrets(line: str) -> str:
    """``line`` with every PostgreSQL URL in it redacted (:func:`bot.infra.config.redacted_url`): a library's message or
    a traceback may quote ``AZUL_DB`` whole."""
    return _DATABASE_URL.sub(lambda found: redacted_url(found[0]), line)


FIELDS = ("game", "variant", "channel", "guild", "interaction", "user", "latency_ms")

_fields: ContextVar[dict[str, Any]] = ContextVar("azul_log_fields", default={})  # noqa: B039 (never mutated)


def bind(**fields: Any) -> None:
    """Attach ``fields`` to every later log line of the current task (None values are left out)."""
    _fields.set(_merged(fields))


@contextlib.contextmanager
def context(**fields: Any) -> Iterator[None]:
    token = _fields.set(_merged(fields))
    try:
        yield
    finally:
        _fields.reset(token)


def _merged(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown log fields {sorted(unknown)}; add them to FIELDS")
    return {**_fields.get(), **{name: value for name, value in fields.items() if value is not None}}


def _stamp_records() -> None:
    """Wrap the log record factory once, so every record, for every handler (tests' too), carries the fields."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "azul_fields", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        record.bound = _fields.get()  # one attribute: logging refuses an ``extra`` that names an existing one
        return record

    factory.azul_fields = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


_stamp_records()


def fields_of(record: logging.LogRecord) -> dict[str, Any]:
    """The bound fields, then any ``extra`` of the same names, in the order of FIELDS."""
    bound = getattr(record, "bound", {})
    given = {name: getattr(record, name, bound.get(name)) for name in FIELDS}
    return {name: value for name, value in given.items() if value is not None}


class TextFormatter(logging.Formatter):
    """The usual line, then the fields: ``... move saved [game=3 channel=600 interaction=12 latency_ms=41]``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return without_secrets(super().format(record))

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        fields = fields_of(record)
        if fields:
            line += " [" + " ".join(f"{name}={value}" for name, value in fields.items()) + "]"
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the fields, and the traceback as one string."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **fields_of(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return without_secrets(json.dumps(entry, ensure_ascii=False, default=str))


def setup(level: str = "INFO", log_format: str = "text", stream: TextIO | None = None) -> None:
    """Send every log line to ``stream`` (stderr) in ``log_format`` ("text" or "json"), replacing earlier handlers."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)

"""The ``multipart/form-data`` bodies discord.py uploads (a message's ``payload_json`` and its files), read by the fake
Discord in one pass over the bytes: aiohttp's streaming reader parses every part's headers with the ``email`` package,
which cost the fake more CPU per upload than the rest of the request.

Strict where it matters: the body must open with its boundary and close with the closing one, every part needs its
blank line after the headers and a ``Content-Disposition: form-data`` with a name, and a header repeated, malformed or
undecodable is refused (:class:`BadForm`), as a garbled upload should be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_PARAMETER = re.compile(rf'\s*;\s*({_TOKEN})\s*=\s*(?:"((?:[^"\\]|\\.)*)"|({_TOKEN}))\s*')
_ESCAPED = re.compile(r"\\(.)")


class BadForm(ValueError):
    """A body that is not well-formed ``multipart/form-data``."""


@dataclass(frozen=True)
class Part:
    name: str
    filename: str | None
    content_type: str
    data: bytes


def media_type(header: str) -> str:
    """``multipart/form-data`` from ``multipart/form-data; boundary=…`` (lowercase, as media types compare)."""
    return header.partition(";")[0].strip().lower()


def parameters(header: str) -> dict[str, str]:
    """The parameters after a header's first value (``boundary``, ``name``, ``filename``...), unquoted, by lowercase
    name; ``name*=utf-8''…`` (RFC 8187) decoded into ``name``."""
    found: dict[str, str] = {}
    text = header[len(header.partition(";")[0]) :]
    at = 0
    while at < len(text):
        match = _PARAMETER.match(text, at)
        if match is None:
            raise BadForm(f"a malformed parameter in {header!r}")
        key, quoted, token = match[1].lower(), match[2], match[3]
        raw = _ESCAPED.sub(r"\1", quoted) if quoted is not None else token
        if key.endswith("*"):
            key, raw = key[:-1], _extended(raw, header)
        if key in found:
            raise BadForm(f"{key!r} twice in {header!r}")
        found[key] = raw
        at = match.end()
    return found


def _extended(raw: str, header: str) -> str:
    charset, quote, rest = raw.partition("'")
    _language, quote_2, encoded = rest.partition("'")
    if not (quote and quote_2):
        raise BadForm(f"a malformed extended parameter in {header!r}")
    try:
        return unquote(encoded, charset or "utf-8", "strict")
    except (LookupError, UnicodeDecodeError) as error:
        raise BadForm(f"an undecodable parameter in {header!r}") from error


def parts(body: bytes, content_type: str) -> list[Part]:
    """The parts of a ``multipart/form-data`` body sent with the ``Content-Type`` header ``content_type``."""
    boundary = parameters(content_type).get("boundary")
    if media_type(content_type) != "multipart/form-data" or not boundary:
        raise BadForm(f"not form data with a boundary: {content_type!r}")
    opening, closing = f"--{boundary}\r\n".encode(), f"\r\n--{boundary}--".encode()
    end = body.rfind(closing)
    if not body.startswith(opening) or end < 0 or body[end + len(closing) :] not in (b"", b"\r\n"):
        raise BadForm("the body does not open and close with its boundary")
    return [_part(raw) for raw in body[len(opening) : end].split(b"\r\n" + opening)]


def _part(raw: bytes) -> Part:
    head, blank, data = raw.partition(b"\r\n\r\n")
    if not blank:
        raise BadForm("a part without the blank line after its headers")
    headers: dict[str, str] = {}
    for line in head.split(b"\r\n"):
        name, colon, value = line.partition(b":")
        key = name.decode("ascii", "replace").strip().lower()
        if not colon or not key or key in headers:
            raise BadForm(f"a malformed or repeated header line {line[:100]!r}")
        try:
            headers[key] = value.decode().strip()
        except UnicodeDecodeError as error:
            raise BadForm(f"an undecodable header line {line[:100]!r}") from error
    disposition = headers.get("content-disposition", "")
    found = parameters(disposition)
    if media_type(disposition) != "form-data" or not found.get("name"):
        raise BadForm(f"a part whose Content-Disposition is not form-data with a name: {disposition!r}")
    return Part(found["name"], found.get("filename"), headers.get("content-type", "text/plain"), data)

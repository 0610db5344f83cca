"""The fake Discord's reader of multipart uploads (:mod:`tests.bot.form_data`): what discord.py's aiohttp writes comes
back part for part, and a garbled body gets a 400 instead of a request half read."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.bot import form_data
from tests.bot.fake_discord import GOOD_TOKEN, FakeDiscord

AUTH = {"Authorization": f"Bot {GOOD_TOKEN}"}


@pytest.fixture
async def server() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.stop()


async def test_an_upload_as_discord_py_writes_it_is_read_part_for_part(server: FakeDiscord) -> None:
    form = aiohttp.FormData(quote_fields=False)  # as discord.py builds its uploads
    payload = {"content": "Ruch \u2192 \u0425\u0456\u0434", "nonce": "b1v2"}
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", b"\x89PNG\r\n\r\n--not-a-boundary\r\n", filename="azul-1-2.png")
    form.add_field("files[1]", b"", filename='odd "name"; \\ z\u00f3\u0142w.txt', content_type="text/plain")
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{server.api}/channels/6000/messages", data=form, headers=AUTH) as response,
    ):
        assert response.status == 200, await response.text()
    (record,) = server.requests
    assert record.json == payload
    assert record.files == {
        "azul-1-2.png": b"\x89PNG\r\n\r\n--not-a-boundary\r\n",
        'odd "name"; \\ z\u00f3\u0142w.txt': b"",
    }


GOOD = (
    b'--b\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{}\r\n'
    b'--b\r\nContent-Disposition: form-data; name="files[0]"; filename="a.png"\r\n\r\nPNG\r\n--b--\r\n'
)


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (GOOD.replace(b"--b--", b"--b"), "multipart/form-data; boundary=b"),  # never closed
        (GOOD[2:], "multipart/form-data; boundary=b"),  # never opened
        (GOOD, "multipart/form-data"),  # no boundary
        (GOOD, "multipart/mixed; boundary=b"),
        (GOOD.replace(b'name="payload_json"\r\n\r\n', b'name="payload_json"\r\n'), "multipart/form-data; boundary=b"),
        (GOOD.replace(b'name="files[0]"; ', b""), "multipart/form-data; boundary=b"),  # a part without a name
        (GOOD.replace(b'form-data; name="payload', b'attachment; name="payload'), "multipart/form-data; boundary=b"),
        (GOOD.replace(b'filename="a.png"', b'filename="a.png'), "multipart/form-data; boundary=b"),  # unclosed quote
        (
            GOOD.replace(b'Content-Disposition: form-data; name="p', b'X\r\nContent-Disposition: form-data; name="p'),
            "multipart/form-data; boundary=b",
        ),  # a header line without a colon
    ],
)
async def test_a_garbled_upload_is_refused_with_a_400(server: FakeDiscord, body: bytes, content_type: str) -> None:
    headers = {**AUTH, "Content-Type": content_type}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{server.api}/channels/6000/messages", data=body, headers=headers) as response,
    ):
        assert response.status == 400
    assert server.requests == [] and server.posted == {}


def test_the_well_formed_body_those_garble_is_read() -> None:
    read = form_data.parts(GOOD, "multipart/form-data; boundary=b")
    assert [(part.name, part.filename, part.data) for part in read] == [
        ("payload_json", None, b"{}"),
        ("files[0]", "a.png", b"PNG"),
    ]


def test_an_extended_filename_is_decoded() -> None:
    assert form_data.parameters("form-data; name=\"f\"; filename*=utf-8''z%C3%B3%C5%82w.png") == {
        "name": "f",
        "filename": "zółw.png",
    }

"""A tiny Discord on 127.0.0.1: just enough REST and gateway for discord.py to log in, sync commands and answer.

Real discord.py talks to it over real HTTP and a real websocket (``Route.BASE`` and the default gateway are pointed
here), so these tests check the bytes the bot sends: the command payload with its translations, interaction
callbacks, and multipart uploads of the board picture.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = 4242
BOT_ID = 4343
GOOD_TOKEN = "good-token"
_ids = itertools.count(10_000)


def snowflake() -> str:
    return str(next(_ids))


@dataclass
class Request:
    method: str
    path: str
    json: Any = None
    files: dict[str, bytes] = field(default_factory=dict)


class FakeDiscord:
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.sockets: list[web.WebSocketResponse] = []
        self.identified = asyncio.Event()
        self.seq = 0
        self.runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle -------------------------------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self.gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for socket in self.sockets:
            await socket.close()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # --- REST ------------------------------------------------------------------------------------------------------
    async def rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        record = Request(request.method, path)
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":  # type: ignore[union-attr]
                    record.json = json.loads(data)
                else:
                    record.files[part.filename or part.name or "?"] = bytes(data)  # type: ignore[union-attr]
        elif request.can_read_body:
            record.json = await request.json()
        self.requests.append(record)
        by_token = "/interactions/" in path or "/webhooks/" in path  # interaction replies authenticate by their token
        if not by_token and request.headers.get("Authorization") != f"Bot {GOOD_TOKEN}":
            return as_json({"message": "401: Unauthorized", "code": 0}, status=401)
        return as_json(self.answer(record))

    def answer(self, record: Request) -> Any:
        method, path = record.method, record.path
        if path == "/users/@me":
            return user(BOT_ID, "azul-bot", bot=True)
        if path == "/oauth2/applications/@me":
            return {
                "id": str(APP_ID),
                "name": "Azul",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": user(1, "owner"),
                "verify_key": "k",
                "flags": 0,
            }
        if path.endswith("/commands") and method == "PUT":
            return [dict(command, id=snowflake(), application_id=str(APP_ID), version="1") for command in record.json]
        if path.endswith("/callback"):
            kind = (record.json or {}).get("type")
            flags = ((record.json or {}).get("data") or {}).get("flags", 0)
            return {
                "interaction": {
                    "id": path.split("/")[2],
                    "type": 2,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool(flags & 64),
                }
            }
        if "/messages" in path:
            return message(path.split("/")[2], record.json or {})
        return {}

    # --- gateway ---------------------------------------------------------------------------------------------------
    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self.sockets.append(socket)
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": 45_000}})
        async for frame in socket:
            if frame.type != WSMsgType.TEXT:
                break
            payload = json.loads(frame.data)
            if payload["op"] == 1:
                await socket.send_json({"op": 11})
            elif payload["op"] == 2:
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": user(BOT_ID, "azul-bot", bot=True),
                        "guilds": [],
                        "session_id": "s",
                        "resume_gateway_url": self.gateway_url,
                        "application": {"id": str(APP_ID), "flags": 0},
                    },
                )
                self.identified.set()
        return socket

    async def dispatch(self, event: str, data: Any) -> None:
        self.seq += 1
        for socket in self.sockets:
            if not socket.closed:
                await socket.send_json({"op": 0, "t": event, "s": self.seq, "d": data})

    async def slash(self, *, guild_id: int, channel_id: int, user_id: int, command: str, sub: str) -> str:
        """Send an INTERACTION_CREATE for ``/command sub`` and return the interaction id."""
        interaction_id = snowflake()
        await self.dispatch(
            "INTERACTION_CREATE",
            {
                "id": interaction_id,
                "application_id": str(APP_ID),
                "type": 2,
                "token": f"tok{interaction_id}",
                "version": 1,
                "guild_id": str(guild_id),
                "channel_id": str(channel_id),
                "channel": {
                    "id": str(channel_id),
                    "type": 0,
                    "guild_id": str(guild_id),
                    "name": "azul",
                    "position": 0,
                    "permission_overwrites": [],
                    "nsfw": False,
                    "parent_id": None,
                },
                "member": {
                    "user": user(user_id, f"user{user_id}"),
                    "roles": [],
                    "joined_at": "2024-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "permissions": "2048",
                    "flags": 0,
                },
                "locale": "pl",
                "guild_locale": "en-US",
                "app_permissions": "2048",
                "entitlements": [],
                "authorizing_integration_owners": {},
                "context": 0,
                "attachment_size_limit": 10_485_760,
                "data": {"id": "1", "name": command, "type": 1, "options": [{"name": sub, "type": 1, "options": []}]},
            },
        )
        return interaction_id

    async def wait_for(self, method: str, fragment: str, timeout: float = 15.0) -> Request:
        async def poll() -> Request:
            while True:
                for record in self.requests:
                    if record.method == method and fragment in record.path:
                        return record
                await asyncio.sleep(0.02)

        return await asyncio.wait_for(poll(), timeout)


def as_json(value: Any, status: int = 200) -> web.Response:
    """discord.py reads a body as JSON only when the content type is exactly ``application/json``."""
    return web.Response(body=json.dumps(value).encode(), status=status, content_type="application/json")


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


def message(channel_id: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": snowflake(),
        "channel_id": channel_id,
        "type": 0,
        "content": body.get("content") or "",
        "author": user(BOT_ID, "azul-bot", bot=True),
        "attachments": [],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "mention_everyone": False,
        "tts": False,
        "timestamp": "2024-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "flags": body.get("flags", 0),
        "components": [],
    }

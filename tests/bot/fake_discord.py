"""A tiny Discord on 127.0.0.1: just enough REST and gateway for discord.py to log in, sync commands and answer.

Real discord.py talks to it over real HTTP and a real websocket (``Route.BASE`` and the default gateway are pointed
here), so these tests check the bytes the bot sends: the command payload with its translations, interaction
callbacks, and multipart uploads of the board picture. Like Discord, it refuses (400, code 50035) a command sync, a
message or an autocomplete answer that breaks a documented limit (:mod:`tests.bot.discord_limits`).

It keeps Discord's clock for interactions: a first answer (callback) more than 3 s after the interaction was sent gets
``404 Unknown interaction`` (10062), a second one ``400 Interaction has already been acknowledged`` (40060), and a
follow-up or an edit of the reply with the interaction's token more than 15 minutes after it ``401 Invalid Webhook
Token`` (50027); ``now`` (seconds, ``time.perf_counter`` by default) may be replaced by a test that fakes time.

It keeps the channel messages the bot posts (and their later edits), so a test can click a message's button; every
request is recorded with the time it arrived, and every interaction's answers by its id (:class:`Answers`). The bot
may run in this process or as a separate one (:mod:`tests.bot.bot_process`), and may be killed and restarted:
each new gateway connection gets READY again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.bot import discord_limits, form_data

APP_ID = 4242
AUTOCOMPLETE_RESULT = 8
BOT_PERMISSIONS = 1024 | 2048 | 32768 | 1 << 38  # View Channel, Send Messages, Attach Files, Send in Threads
BOT_ID = 4343
GOOD_TOKEN = "good-token"
_ids = itertools.count(10_000)
NONCE_SECONDS = 300.0
"""How long Discord remembers a message's nonce for ``enforce_nonce`` ("a few minutes")."""
FIRST_ANSWER_SECONDS = 3.0
"""Discord's window for the first answer to an interaction (a reply, a deferral, a modal, autocomplete choices)."""
TOKEN_SECONDS = 15 * 60.0
"""How long an interaction's token works for follow-ups and edits of its reply."""


DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake() -> str:
    """A new id as Discord makes them: its creation time in the high bits (discord.py reads an interaction's
    ``created_at`` from it, and the bot times its deferral by that), a counter in the low ones."""
    return str(((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(_ids) & 0x3FFFFF))


@dataclass
class Request:
    method: str
    path: str
    json: Any = None
    files: dict[str, bytes] = field(default_factory=dict)
    at: float = field(default_factory=time.perf_counter)


@dataclass
class Answers:
    """What the bot answered to one interaction: when it first replied (or deferred), and its texts."""

    sent: float
    first: float | None = None
    texts: list[str] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    channel_id: str = ""
    message_id: str | None = None  # the reply as a message, when it carries components (a button to click)


class FakeDiscord:
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.sockets: list[web.WebSocketResponse] = []
        self.identified = asyncio.Event()
        self.identifies = 0
        self.seq = 0
        self.runner: web.AppRunner | None = None
        self.port = 0
        self.messages: dict[str, dict[str, Any]] = {}  # channel messages by id, as last posted or edited
        self.answers: dict[str, Answers] = {}  # by interaction id
        self.posted: dict[str, list[Request]] = {}  # channel message posts by channel id
        self.guild_of: dict[str, str] = {}  # channel id → guild id, for GET /channels/{id}
        self.fail_posts = 0  # answer this many channel message posts with a 500, as a failing Discord would
        self.forbid_posts = 0  # answer this many channel message posts with a 403 (a permission taken away)
        self.refused: list[tuple[Request, dict[str, Any]]] = []  # requests refused for breaking a Discord limit
        self.app_permissions = BOT_PERMISSIONS  # the bot's permissions in the channel of every interaction
        self.throttle_posts = 0  # answer this many channel message posts with Cloudflare's 429 (no Via header)
        self.throttle_replies = 0  # … and this many answers to interactions (first answers and edits)
        self.deleted: set[str] = set()  # channel ids that no longer exist (404 Unknown Channel)
        self.limit_posts = 0  # answer this many channel message posts with Discord's own 429 (with Via)
        self.throttle_seconds = 1.0  # … asking to retry after this long
        self.fail_replies = 0  # refuse this many answers to an interaction (a first answer, or an edit) with a 400
        self.fail_after_create = 0  # create this many channel messages, then answer with a 500 all the same
        self.nonces: dict[tuple[str, str], tuple[float, dict[str, Any]]] = {}  # (channel, nonce) → when, message
        self.gateway_down = False  # refuse gateway connections (503), as in an outage: the bot backs off and retries
        self.gateway_attempts = 0  # connections asked for, refused ones too
        self.now = time.perf_counter  # Discord's clock for interactions: a test faking time may replace it
        self.late: list[str] = []  # interactions whose first answer came too late (refused with 10062)

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
        record = await read_request(request)
        self.requests.append(record)
        path = record.path
        by_token = "/interactions/" in path or "/webhooks/" in path  # interaction replies authenticate by their token
        if not by_token and request.headers.get("Authorization") != f"Bot {GOOD_TOKEN}":
            return as_json({"message": "401: Unauthorized", "code": 0}, status=401)
        if path.startswith("/channels/") and path.split("/")[2] in self.deleted:
            return as_json({"message": "Unknown Channel", "code": 10003}, status=404)
        fault = self.injected_fault(record)
        if fault is not None:
            return fault
        refused = self.out_of_time(record)
        if refused is not None:
            return refused
        errors = limit_errors(record)
        if errors:
            self.refused.append((record, errors))
            return as_json(discord_limits.invalid_form_body(errors), status=400)
        if self.refused_reply(record):
            return as_json({"message": "400: Bad Request", "code": 50035}, status=400)
        self.note_answer(record)
        answered = self.answer(record)
        if self.created_then_failed(record):
            return as_json({"message": "500: Internal Server Error", "code": 0}, status=500)
        return as_json(answered)

    def injected_fault(self, record: Request) -> web.Response | None:
        """The throttling or failure a test asked for, if this request is one it applies to."""
        post = record.method == "POST" and record.path.startswith("/channels/")
        if self.throttle_posts and post:
            self.throttle_posts -= 1
            return cloudflare_429(self.throttle_seconds)
        reply = record.path.endswith("/callback") or (record.method == "PATCH" and record.path.startswith("/webhooks/"))
        if self.throttle_replies and reply:
            self.throttle_replies -= 1
            return cloudflare_429(self.throttle_seconds)
        if self.limit_posts and post:
            self.limit_posts -= 1
            return discord_429(self.throttle_seconds)
        if self.fail_posts and post:
            self.fail_posts -= 1
            return as_json({"message": "500: Internal Server Error", "code": 0}, status=500)
        if self.forbid_posts and post:
            self.forbid_posts -= 1
            return as_json({"message": "Missing Permissions", "code": 50013}, status=403)
        return None

    def out_of_time(self, record: Request) -> web.Response | None:
        """Discord's refusal of an interaction's answer outside its time (or a second first answer), if it is one."""
        parts = record.path.split("/")
        if record.path.startswith("/interactions/") and record.path.endswith("/callback"):
            found = self.answers.get(parts[2])
            if found is None:
                return None
            if found.first is not None:
                return as_json({"message": "Interaction has already been acknowledged.", "code": 40060}, status=400)
            if self.now() - found.sent > FIRST_ANSWER_SECONDS:
                self.late.append(parts[2])
                return as_json({"message": "Unknown interaction", "code": 10062}, status=404)
        elif record.path.startswith("/webhooks/") and len(parts) > 3:
            found = self.answers.get(parts[3].removeprefix("tok"))
            if found is not None and self.now() - found.sent > TOKEN_SECONDS:
                return as_json({"message": "Invalid Webhook Token", "code": 50027}, status=401)
        return None

    def refused_reply(self, record: Request) -> bool:
        """Whether to refuse this answer to an interaction (``fail_replies``)."""
        edit = record.method == "PATCH" and record.path.endswith("/messages/@original")
        if not (self.fail_replies and (edit or record.path.endswith("/callback"))):
            return False
        self.fail_replies -= 1
        return True

    def created_then_failed(self, record: Request) -> bool:
        """Whether to fail a channel message post that did create its message (Discord sometimes does)."""
        if not (self.fail_after_create and record.method == "POST" and record.path.endswith("/messages")):
            return False
        self.fail_after_create -= 1
        return True

    def sent_before(self, channel_id: str, body: dict[str, Any]) -> dict[str, Any] | None:
        """Discord's ``enforce_nonce``: a message post with the nonce of one sent in the last few minutes to the same
        channel creates nothing and answers with that message."""
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        seen = self.nonces.get((channel_id, str(nonce)))
        return seen[1] if seen is not None and time.monotonic() - seen[0] < NONCE_SECONDS else None

    def note_nonce(self, channel_id: str, body: dict[str, Any], posted: dict[str, Any]) -> None:
        if body.get("nonce") is not None and body.get("enforce_nonce"):
            self.nonces[(channel_id, str(body["nonce"]))] = (time.monotonic(), posted)

    def note_answer(self, record: Request) -> None:
        """Keep the interaction answers (by interaction id, or by token for edits and follow-ups)."""
        parts = record.path.split("/")
        if record.path.startswith("/interactions/") and record.path.endswith("/callback"):
            found = self.answers.get(parts[2])
            if found is not None:
                found.first = found.first or record.at
                data = (record.json or {}).get("data") or {}
                if data.get("components"):  # kept, so a test can click its buttons as a player would
                    replied = message(found.channel_id, data)
                    self.messages[replied["id"]] = replied
                    found.message_id = replied["id"]
                content = data.get("content")
                if content:
                    found.texts.append(content)
                    found.done.set()
        elif record.path.startswith("/webhooks/") and record.method in ("PATCH", "POST"):
            found = self.answers.get(parts[3].removeprefix("tok"))
            if found is not None and (record.json or {}).get("content"):
                found.texts.append(record.json["content"])
                found.done.set()

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
        if path.startswith("/channels/") and "/messages" in path:
            return self.channel_message(record)
        if "/messages" in path:
            return message(path.split("/")[2], record.json or {})
        if path.startswith("/channels/") and method == "GET":
            return channel(path.split("/")[2], self.guild_of.get(path.split("/")[2], "1"))
        return {}

    def channel_message(self, record: Request) -> Any:
        parts = record.path.split("/")  # /channels/{channel}/messages[/{message}]
        channel_id = parts[2]
        if record.method == "POST":
            earlier = self.sent_before(channel_id, record.json or {})
            if earlier is not None:
                return earlier
            posted = message(channel_id, record.json or {})
            self.messages[posted["id"]] = posted
            self.posted.setdefault(channel_id, []).append(record)
            self.note_nonce(channel_id, record.json or {}, posted)
            return posted
        if len(parts) > 4 and parts[4] in self.messages:
            kept = self.messages[parts[4]]
            if record.method == "PATCH":
                for key in ("content", "components"):
                    if key in (record.json or {}):
                        kept[key] = record.json[key] or ([] if key == "components" else "")
            return kept
        return message(channel_id, record.json or {})

    # --- gateway ---------------------------------------------------------------------------------------------------
    async def drop_gateway(self) -> None:
        """An outage: every gateway connection is closed, and new ones are refused until ``gateway_down`` is reset."""
        self.gateway_down = True
        for socket in self.sockets:
            await socket.close()

    async def gateway(self, request: web.Request) -> web.StreamResponse:
        self.gateway_attempts += 1
        if self.gateway_down:
            return web.Response(status=503, text="upstream connect error")
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
                self.identifies += 1
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": user(BOT_ID, "azul-bot", bot=True),
                        "guilds": [],
                        "session_id": "s",
                        "resume_gateway_url": self.gateway_url,
                        "application": {"id": str(APP_ID), "flags": 0},
                        # A sharded bot's IDENTIFY names its shard, and Discord's READY says it back.
                        **({"shard": payload["d"]["shard"]} if "shard" in (payload.get("d") or {}) else {}),
                    },
                    to=socket,  # the connection that identified, not the other shards'
                )
                self.identified.set()
        return socket

    async def dispatch(
        self, event: str, data: Any, *, one: bool = False, to: web.WebSocketResponse | None = None
    ) -> None:
        """Send an event to every connected bot, or (``one``) to one of them in turn, as Discord shares the events of
        a sharded bot, or only to the connection ``to``; with one bot process the first two are the same."""
        self.seq += 1
        live = [socket for socket in self.sockets if not socket.closed]
        if to is not None:
            live = [to]
        elif one and live:
            live = [live[self.seq % len(live)]]
        for socket in live:
            # A connection closing as its process dies loses the event with it, as on Discord's gateway.
            with contextlib.suppress(ConnectionResetError):
                await socket.send_json({"op": 0, "t": event, "s": self.seq, "d": data})

    async def slash(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        command: str,
        sub: str,
        options: dict[str, Any] | None = None,
        locale: str = "pl",
        interaction_id: str | None = None,
    ) -> str:
        """Send an INTERACTION_CREATE for ``/command sub`` (``sub`` may be ``group sub``) with ``options`` (strings, or
        ``{"type": …, "value": …}`` as sent) and return the interaction id; pass ``interaction_id`` to send the same
        interaction again, as Discord may when it retries."""
        given = [
            {"name": name, **value} if isinstance(value, dict) else {"name": name, "type": 3, "value": str(value)}
            for name, value in (options or {}).items()
        ]
        for depth, name in enumerate(reversed(sub.split())):  # none for a command without subcommands
            given = [{"name": name, "type": 1 if depth == 0 else 2, "options": given}]  # a subcommand, then its group
        data = {"id": "1", "name": command, "type": 1, "options": given}
        return await self.interaction(
            2,
            data,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            locale=locale,
            interaction_id=interaction_id,
        )

    async def click(
        self,
        *,
        guild_id: int,
        user_id: int,
        message_id: str,
        custom_id: str,
        values: list[str] | None = None,
        locale: str = "en-US",
    ) -> str:
        """Click a button (or choose ``values`` in a select) of a message the bot posted."""
        clicked = self.messages[message_id]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = values
        return await self.interaction(
            3,
            data,
            guild_id=guild_id,
            channel_id=int(clicked["channel_id"]),
            user_id=user_id,
            locale=locale,
            message=clicked,
        )

    async def interaction(
        self,
        kind: int,
        data: dict[str, Any],
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        locale: str,
        message: dict[str, Any] | None = None,
        interaction_id: str | None = None,
    ) -> str:
        interaction_id = interaction_id or snowflake()
        self.answers.setdefault(interaction_id, Answers(self.now(), channel_id=str(channel_id)))
        self.guild_of[str(channel_id)] = str(guild_id)
        extra = {"message": message} if message is not None else {}
        await self.dispatch(
            "INTERACTION_CREATE",
            {
                **extra,
                "id": interaction_id,
                "application_id": str(APP_ID),
                "type": kind,
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
                "locale": locale,
                "guild_locale": "en-US",
                "app_permissions": str(self.app_permissions),
                "entitlements": [],
                "authorizing_integration_owners": {},
                "context": 0,
                "attachment_size_limit": 10_485_760,
                "data": data,
            },
            one=True,
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


async def read_request(request: web.Request) -> Request:
    """The request as the fake keeps it: its JSON body, or a multipart upload's payload and files."""
    record = Request(request.method, "/" + request.match_info["tail"])
    content_type = request.headers.get("Content-Type", "")
    body = await request.content.read()
    if form_data.media_type(content_type).startswith("multipart/"):
        try:
            for part in form_data.parts(body, content_type):
                if part.name == "payload_json":
                    record.json = json.loads(part.data)
                else:
                    record.files[part.filename or part.name] = part.data
        except form_data.BadForm as error:
            raise web.HTTPBadRequest(text=f"400: Bad Request ({error})") from None
    elif body:
        record.json = json.loads(body)
    return record


def limit_errors(record: Request) -> dict[str, Any]:
    """What Discord would refuse in a request for breaking a documented limit (:mod:`tests.bot.discord_limits`)."""
    body = record.json if isinstance(record.json, dict) else {}
    if record.path.endswith("/commands") and record.method == "PUT":
        return discord_limits.command_errors(record.json or [])
    if record.path.endswith("/callback"):
        data = body.get("data") or {}
        if body.get("type") == AUTOCOMPLETE_RESULT:
            return discord_limits.autocomplete_errors(data.get("choices") or [])
        return discord_limits.message_errors(data)
    if "/messages" in record.path and record.method in ("POST", "PATCH"):
        return discord_limits.message_errors(body)
    return {}


def cloudflare_429(seconds: float) -> web.Response:
    """A 429 as Cloudflare in front of Discord sends it: a page, a Retry-After header, and no ``Via`` header (which
    Discord's own 429s carry; discord.py raises on a 429 without it instead of waiting)."""
    return web.Response(
        body=b"<html><body>error code: 1015</body></html>",
        status=429,
        content_type="text/html",
        headers={"Retry-After": f"{seconds:g}"},
    )


def discord_429(seconds: float) -> web.Response:
    """A 429 as Discord's API sends it: JSON with ``retry_after``, the bucket's headers and ``Via`` (discord.py waits
    it out and retries)."""
    body = {"message": "You are being rate limited.", "retry_after": seconds, "global": False}
    headers = {"Via": "1.1 google", "Retry-After": f"{seconds:g}", "X-RateLimit-Scope": "user"}
    response = as_json(body, status=429)
    response.headers.update(headers)
    return response


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


def channel(channel_id: str, guild_id: str) -> dict[str, Any]:
    return {
        "id": channel_id,
        "type": 0,
        "guild_id": guild_id,
        "name": "azul",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
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
        "components": body.get("components") or [],
    }

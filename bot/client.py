"""The Discord client: wires the store, the service, the poster, the commands, the persistent controls and
translations, checks that every registered game can be played and drawn, and runs the timer loop (reminders and
deadlines are rows in the store, :mod:`bot.app.timers`; the loop runs what is due, at start-up and every minute).

It provides :class:`bot.ui.context.BotContext` (``service`` and ``poster``) to the handlers, which never import it.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import render
from bot.app import quarantine
from bot.app.computer import Computer
from bot.app.errors import BoardNotPosted, Refusal
from bot.app.language import Translator
from bot.app.leagues import LeagueService
from bot.app.outcomes import Turn
from bot.app.pictures import Pictures
from bot.app.service import GameService
from bot.app.timers import DEADLINE, LIMIT_HALF, LIMIT_HOUR, REMIND, Fired
from bot.games import check_adapters
from bot.infra import logs, metrics
from bot.infra.clock import Clock, SystemClock
from bot.infra.loops import Loop
from bot.infra.store import GameRow, Store
from bot.ui.abort_votes import AbortVoteButton
from bot.ui.commands import CommandSyncRefused, add_commands, needs_server, payload, payload_hash, sync
from bot.ui.commands.stats import PageButton
from bot.ui.computer_turns import ComputerTurns
from bot.ui.ending import EndButton
from bot.ui.league_confirm import LeagueConfirmButton
from bot.ui.league_posts import LeagueButton
from bot.ui.league_runs import LeagueRuns
from bot.ui.limits import run_deadlines, warning_key, warning_params
from bot.ui.lobby import LobbyButton, edit_lobby
from bot.ui.picker import ConfirmButton, PickerSelect, PlayButton, board_view
from bot.ui.places import GonePlaces
from bot.ui.posting import Controls, Poster
from bot.ui.privacy import ForgetButton
from bot.ui.ratelimits import ChannelPacer, count_rate_limits, patient, patient_replies
from bot.ui.replays import ReplayButton
from bot.ui.replies import Deliveries, answer_error, is_repeat
from bot.ui.stopping import Stopping
from bot.ui.summary import SummaryButton, summary_view
from bot.ui.undo import UndoButton
from bot.ui.whole_table import TableButton

log = logging.getLogger(__name__)

TIMER_CHECK_SECONDS = 60
STORE_WATCH_SECONDS = 2.0
"""How often the SQLite file is checked to be still the one opened (not deleted, not replaced)."""
EXIT_STORE_LOST = 5
"""The store's exit code (``bot.__main__.EXIT_STORE``): the database file was lost while running."""
EXIT_UNDRAWABLE = 7
"""``bot.__main__.EXIT_UNDRAWABLE``: a registered game cannot be drawn (a broken install)."""
BOARD_CHECK_SECONDS = 5 * 60
"""How often boards that are missing (a crash between saving a move and posting it, a failed post) are posted, and
games whose computer turns a dead process left are taken over; with ``AZUL_LEASE_SECONDS``, once every lease."""
STOP_GRACE_SECONDS = 5.0
"""On a stop, how long the commands and clicks under way may take to finish (within Docker's 10 s, with the
workers' own 2 s and the closing after it)."""
CONTROLS = (
    PlayButton,
    TableButton,
    LobbyButton,
    PickerSelect,
    ConfirmButton,
    PageButton,
    ReplayButton,
    UndoButton,
    LeagueButton,
    LeagueConfirmButton,
    ForgetButton,
    EndButton,
    AbortVoteButton,
    SummaryButton,
)
"""Every persistent control; a component id none of them matches was forged (or is from a control since removed)."""


class Tree(app_commands.CommandTree["AzulBot"]):
    """The one error path of slash commands: whatever a command raises is answered by ``answer_error``."""

    async def on_error(self, interaction: discord.Interaction[AzulBot], error: app_commands.AppCommandError) -> None:
        await answer_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction[AzulBot], /) -> bool:
        if is_repeat(interaction):  # delivered again: answered the first time
            return False
        if needs_server(interaction, self):  # `/azul new` in a DM would open a lobby nobody else can join
            await answer_error(interaction, Refusal("server_only"))
            return False
        return True


class AzulBot(commands.Bot):
    """Opens the database in ``setup_hook`` (as discord.py's advanced start-up example does) and syncs commands."""

    def __init__(
        self,
        db_path: str,
        *,
        dev_guild: int | None = None,
        seed_source: object = None,
        remind_after: timedelta | None = None,
        clock: Clock | None = None,
        computer: Computer | None = None,
        pictures: Pictures | None = None,
        lease: timedelta | None = None,
        sync_only: bool = False,
        **client_options: Any,
    ) -> None:
        # The bot has no voice: discord.py's own warn-once flags, cleared before the client would log them.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels, threads and the server's locale; nothing privileged
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=Tree,
            **client_options,
        )
        self.http.request = patient(self.http.request)  # type: ignore[method-assign,assignment]  # 429s without Via
        patient_replies()
        count_rate_limits()
        self.pacer = ChannelPacer()  # bulk posts (the sweep, timers due together) stay under a channel's limit
        self.db_path = db_path
        self.dev_guild = dev_guild
        self._seed_source = seed_source
        self.remind_after = remind_after
        self.lease = lease
        self.sync_only = sync_only  # `python -m bot sync`: sync the command tree (whether changed or not) and stop
        self.clock = clock or SystemClock()
        self._store: Store | None = None
        self._lobby_edits: set[asyncio.Task[None]] = set()
        self._service: GameService | None = None
        self._leagues: LeagueService | None = None
        self._poster: Poster | None = None
        self.computer = computer or Computer()
        self.pictures = pictures or Pictures()
        self._computer_turns: ComputerTurns | None = None
        self.league_runs = LeagueRuns(self)
        self._store_closing: asyncio.Task[None] | None = None
        self.deliveries = Deliveries()
        self.stopping = Stopping(self, self._saved_by)
        self.stopping.install()
        self.timer_loop = Loop("timers", self._timers_pass, TIMER_CHECK_SECONDS, before=self.wait_until_ready)
        self.boards_loop = Loop("boards", self._sweep, BOARD_CHECK_SECONDS, before=self.wait_until_ready)
        self.store_watch = Loop("store file", self._watch_store, STORE_WATCH_SECONDS, before=self.wait_until_ready)
        self.exit_code = 0
        """What ``python -m bot`` exits with once the bot has closed: the store's code when its file was lost."""
        self.stopped_because = ""
        """Why the bot stopped itself (with ``exit_code``), in one line for the operator."""
        self._closing_for_store: asyncio.Task[None] | None = None
        self._drawing_checked: asyncio.Task[None] | None = None

    @property
    def loops(self) -> tuple[Loop, ...]:
        """Every background loop, for the heartbeat (:mod:`bot.infra.health`)."""
        return (self.timer_loop, self.boards_loop, self.store_watch)

    async def _watch_store(self) -> None:
        """An SQLite file (the database or its write-ahead log) deleted or replaced under the running bot: whatever it
        wrote now would be lost at the next start. Refuse every read and write from now on (the store does), keep
        what was committed where it still can, say so once, and stop with the store's exit code, so the operator (or
        the container's restart policy) opens the database anew."""
        store = self._store
        why = store.lost() if store is not None else None
        if store is None or why is None or self.exit_code:
            return
        self.exit_code = EXIT_STORE_LOST
        self.stopped_because = f"the database file {self.db_path} was lost while running"
        try:
            kept = await store.keep_committed()
        except Exception as error:  # the file is gone; the stop below matters more
            kept = f"what it committed could not be kept ({type(error).__name__}: {error})"
        log.error(
            "%s while the bot was running: %s; it stops now (exit code %d): restore the file and start it",
            why,
            kept,
            EXIT_STORE_LOST,
        )
        self._closing_for_store = asyncio.create_task(self.close(), name="stop: the database file is gone")

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._service

    @property
    def leagues(self) -> LeagueService:
        if self._leagues is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._leagues

    @property
    def poster(self) -> Poster:
        if self._poster is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._poster

    def identity(self) -> str:
        """Who this process is, the same across its restarts: the shards it runs (several processes on one database
        each run their own shards; see README's "Scaling out")."""
        shards = getattr(self, "shard_ids", None)
        if shards:
            return f"shards {','.join(map(str, sorted(shards)))} of {self.shard_count}"
        return "unsharded"

    def _lobby_after_thread_game(self, game: GameRow) -> None:
        """A game played in its own thread ended: its lobby in the channel above says so, not that it started."""
        if game.lobby_channel_id is not None:
            task = asyncio.create_task(edit_lobby(self, game), name=f"lobby of game {game.id}")
            self._lobby_edits.add(task)
            task.add_done_callback(self._lobby_edits.discard)

    def wake_computer(self, game_id: int, after: Turn | None = None) -> None:
        if self._computer_turns is not None:
            self._computer_turns.wake(game_id, after)

    async def setup_hook(self) -> None:
        check_adapters()  # a registered game without words fails here, not in the middle of a game
        self._store = await Store.open(self.db_path, the_bot=True)
        self._store_closing = None
        await self.tree.set_translator(Translator())
        await add_commands(self)
        if self.sync_only:
            await self.sync_commands(force=True)
            return
        self._drawing_checked = asyncio.create_task(self._check_drawing(), name="check that every game can be drawn")
        self.computer.start()
        self.pictures.start()
        self._service = GameService(
            self._store,
            self._seed_source,  # type: ignore[arg-type]
            self.computer,
            clock=self.clock,
            remind_after=self.remind_after,
            lease=self.lease,
            identity=self.identity(),
        )
        self._leagues = LeagueService(self._service)  # built once: its handlers and the league runs share it
        taken = await self._service.claims.take_over_own()
        if taken:
            log.info("took back %d claims of this process's previous life", taken)
        # A bad row harms only its game, never the start; the others' timers that a crash left unset are healed.
        _, broken = await self._service.timers.sync_all()
        if broken:
            log.error("%d games are quarantined: their stored state cannot be read (python -m bot check)", broken)
        controls = Controls(board=board_view, summary=summary_view)  # the poster builds no view of its own
        self._poster = Poster(
            self, self._service, self.pictures, self.clock, claims=self._service.claims, controls=controls
        )
        self._computer_turns = ComputerTurns(self, self._service, self._poster)
        self._service.settlement.on_settled.append(lambda game: self.league_runs.wake())  # it may end a league's round
        self._service.settlement.on_settled.append(self._lobby_after_thread_game)
        self.add_dynamic_items(*CONTROLS)
        await self.add_cog(GonePlaces(self, self._service))
        settled = (
            await self._service.settlement.settle_pending()
        )  # games that ended while a result could not be written
        if settled:
            log.info("recorded the results of %d finished games", settled)
        await self.sync_commands()
        if self.lease is not None:  # the operator's lease: a dead process's work is looked for as often
            self.boards_loop.change_interval(seconds=self.lease.total_seconds())
            self.timer_loop.change_interval(seconds=min(TIMER_CHECK_SECONDS, self.lease.total_seconds()))
        self.timer_loop.start()
        self.boards_loop.start()
        self.store_watch.start()
        self._resuming = asyncio.create_task(self._resume_computer_turns(), name="resume computer turns")

    async def _check_drawing(self) -> None:
        """Stop the bot when a registered game cannot be drawn, before players meet it. Checked in a thread once
        the bot is connected, not in the start-up, which it would hold up: it loads Pillow and every game's renderer,
        and the first answers draw nothing."""
        await self.wait_until_ready()  # and a close in the middle of the log-in would leave it half done
        try:
            await asyncio.to_thread(render.check_renderers)
        except LookupError as error:
            self.exit_code = EXIT_UNDRAWABLE
            self.stopped_because = f"a registered game cannot be drawn, so the bot stops: {error}"
            log.error("%s", self.stopped_because)
            await self.close()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the command tree when it differs from the one last synced (its fingerprint is in the store, so bot
        processes agree), or always with ``force``. True when it synced. Raises :class:`CommandSyncRefused` when
        Discord refuses it (the bot would have no commands)."""
        if self._store is None:
            raise RuntimeError("the bot has not been set up yet")
        guild = discord.Object(id=self.dev_guild) if self.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        scope = str(self.dev_guild) if self.dev_guild else "global"
        commands_ = await payload(self.tree, guild)
        fingerprint = payload_hash(commands_)
        if not force and await self._store.servers.synced_hash(scope) == fingerprint:
            log.info("the application commands are unchanged since their last sync (%s)", scope)
            return False
        try:
            synced = await sync(self.tree, commands_, guild)
        except discord.HTTPException as error:
            log.error("Discord refused the application commands (%s): %s", scope, error)
            raise CommandSyncRefused(error) from error
        await self._store.servers.set_synced_hash(scope, fingerprint)
        log.info("synced %d application commands (%s)", synced, scope)
        return True

    async def _resume_computer_turns(self) -> None:
        """A restart in the middle of a computer's turn resumes it, once the bot can post again."""
        await self.wait_until_ready()
        if self._computer_turns is not None:
            await self._computer_turns.resume_all()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a click that no control will: its custom id matches none of them (forged, or of an unknown action),
        or is not on the message clicked (discord.py then drops it silently). Never leave a click unanswered."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        known = any(control.__discord_ui_compiled_template__.fullmatch(custom_id) for control in CONTROLS)
        if not known or not on_message(interaction.message, custom_id):
            log.info("unknown component id %r", custom_id[:120])
            await answer_error(interaction, Refusal("bad_control"))

    async def _sweep(self) -> None:
        """The boards loop's pass: missing boards, then games another bot process stopped playing when it died
        (the first pass follows start-up, which resumes this process's own computer turns already)."""
        await self.post_missing_boards()
        if self._computer_turns is not None and self.boards_loop.passes > 0:
            await self._computer_turns.resume_all()

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        """An event handler raised: counted for the metrics, logged with its traceback (as discord.py does)."""
        metrics.unhandled("event")
        log.exception("unexpected error in %s", event_method)

    async def post_missing_boards(self) -> int:
        """Post the board of every game whose newest version has none, pinging its waiting players once; the first
        run follows start-up, so a crash between saving a move and posting its board leaves no game without one.
        A board another poster is posting (the move's own reply, another bot process) is left to it."""
        posted = 0
        for game, state, turn in await self.service.boards.boards_to_post():
            with logs.context(game=game.id, channel=game.channel_id):
                try:
                    channel = self.get_channel(game.channel_id) or await self.fetch_channel(game.channel_id)
                    if not isinstance(channel, discord.abc.Messageable):
                        continue
                    await self.pacer.wait(game.channel_id)
                    guild = getattr(channel, "guild", None)
                    if await self.poster.post_late(channel, game, state, turn, guild=guild) is not None:
                        posted += 1
                        log.info("posted the missing board of version %s", game.version)
                except (BoardNotPosted, discord.HTTPException) as error:
                    log.warning("the missing board of version %s could not be posted (%s)", game.version, error)
                except Exception as error:  # this game's fault (or a store outage: raised again, for the loop)
                    await quarantine.after_fault(self.service.store, game.id, error)
        return posted

    async def _timers_pass(self) -> None:
        """The timer loop's pass: due timers and league rounds, then the open-games gauge."""
        await self.run_due()
        metrics.open_games(await self.service.store.servers.open_games_total())

    async def run_due(self) -> int:
        """Run every timer that is due by the bot's clock (the loop's body; tests call it after moving the clock).
        Returns how many games had timers fire."""
        fired = await self.service.timers.run_due()
        for due in fired:
            try:
                await self._fire(due)
            except discord.HTTPException:  # refused for good (a deleted channel, no permission): not tried again
                log.warning("game %s: the %s timer could not be posted", due.game.id, due.kind)
            except Exception as error:  # one game's fault must not hold back the others' timers
                await quarantine.after_fault(self.service.store, due.game.id, error)
                continue  # left pending: it runs again when its lease ends
            await self.service.timers.finish(due)  # only now: a crash before the post leaves it to run again
        await self.league_runs.tick()  # sign-ups that close, rounds that start, results not yet recorded
        return len(fired)

    async def _fire(self, due: Fired) -> None:
        game = due.game
        channel = self.get_channel(game.channel_id) or await self.fetch_channel(game.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        guild = getattr(channel, "guild", None)
        await self.pacer.wait(game.channel_id)
        if due.kind == REMIND:
            await self.poster.post_reminder(channel, game, due.state, guild, due.seats)
        elif due.kind in {LIMIT_HALF, LIMIT_HOUR}:
            params = await warning_params(self.service, game, due.seats)
            await self.poster.post_reminder(channel, game, due.state, guild, due.seats, key=warning_key(game), **params)
        elif due.kind == DEADLINE:
            await run_deadlines(self.service, self.poster, channel, due)
            self.wake_computer(game.id)  # seats the computer plays now, or computer seats after these moves

    async def close(self) -> None:
        for loop in self.loops:  # a sweep in the middle of a post would meet a closed HTTP session
            loop.cancel()
        if self._drawing_checked is not None and self._drawing_checked is not asyncio.current_task():
            self._drawing_checked.cancel()  # still waiting for the connection (its thread, if started, ends alone)
        await self.stopping.drain(STOP_GRACE_SECONDS)  # the interactions under way finish (or are told) first
        await super().close()
        await self.close_store()

    async def _saved_by(self, interaction_id: int) -> bool:
        """Whether this interaction's move (or undo) is in the store: what a player cut off by a stop is told."""
        return await self.service.store.moves.move_count_by_interaction(interaction_id) > 0

    async def __aexit__(self, *exc: object) -> None:
        # discord.py's exit awaits only its own part of a close() already under way (SIGTERM's), and asyncio.run
        # then cancels that task halfway: the database's thread would keep the process alive. Finish it here.
        await super().__aexit__(*exc)  # type: ignore[arg-type]
        await self.close_store()

    async def close_store(self) -> None:
        """Stop the computer's turns, the search and picture workers, then close the database (a cut-off turn resumes
        later). Callers may overlap (SIGTERM's close and the context manager's exit): the work runs once."""
        if self._store_closing is None:
            self._store_closing = asyncio.create_task(self._close_store(), name="close the store")
        await asyncio.shield(self._store_closing)

    async def _close_store(self) -> None:
        await self.league_runs.settled()
        if self._computer_turns is not None:
            await self._computer_turns.close()
            self._computer_turns = None
        await self.computer.close()
        await self.pictures.close()
        if self._store is not None:
            await self._store.close()
            self._store = None


def on_message(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    view = discord.ui.View.from_message(message, timeout=None)
    return any(getattr(item, "custom_id", None) == custom_id for item in view.walk_children())


class ShardedAzulBot(AzulBot, commands.AutoShardedBot):
    """The bot running several of Discord's shards in one process (``shard_ids`` of ``shard_count``): a bot in more
    than 2,500 servers must shard, and several processes, each with some of the shards, share one PostgreSQL
    database. Every process answers the interactions of its own shards; background work goes to whichever process
    claims it first in the store."""


def create_bot(
    db_path: str,
    *,
    dev_guild: int | None = None,
    seed_source: object = None,
    remind_after: timedelta | None = None,
    clock: Clock | None = None,
    computer: Computer | None = None,
    pictures: Pictures | None = None,
    shard_count: int | None = None,
    shard_ids: tuple[int, ...] | None = None,
    lease: timedelta | None = None,
    sync_only: bool = False,
) -> AzulBot:
    options: dict[str, Any] = dict(
        lease=lease,
        sync_only=sync_only,
        dev_guild=dev_guild,
        seed_source=seed_source,
        remind_after=remind_after,
        clock=clock,
        computer=computer,
        pictures=pictures,
    )
    if shard_count is None:
        return AzulBot(db_path, **options)
    shards = list(shard_ids) if shard_ids is not None else list(range(shard_count))
    return ShardedAzulBot(db_path, shard_count=shard_count, shard_ids=shards, **options)

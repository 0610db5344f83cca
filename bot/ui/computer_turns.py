"""Computer turns: whenever a seat the computer plays must act, it is played promptly and posted like a person's.

After every move (and the start of a game) the handler wakes the game here; at start-up every active game is woken,
so a restart in the middle of a computer's turn resumes it (the search is repeated and finds the same move, and the
version guard makes sure it is saved once). Each game has at most one task, which plays the computer's seats one
after the other, re-reading the game before each move, and ends when no computer seat must act. Searches run in the
process pool (:mod:`bot.app.computer`), so other games' moves are never delayed. With several bot processes on one
database, a game's computer turns are claimed in the store (:meth:`bot.app.claims.Claims.claim`) by one process at a
time; the bot's five-minute sweep wakes every such game again, so one whose process died is taken over once its lease
ends (``AZUL_LEASE_SECONDS`` sets both shorter).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

import discord

from bot.app.computer import DEFAULT_THINKING, longest_search
from bot.app.errors import BoardNotPosted, Refusal
from bot.app.language import guild_locale, text
from bot.app.narration import headline, level_label, seat_label
from bot.app.outcomes import Turn
from bot.app.ports import Games
from bot.infra import metrics
from bot.ui.context import BoardPoster
from bot.ui.posting import renewing

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)
"""How long a game's computer turns stay with the bot process playing them (renewed before every move and while its
search runs, which may take ten times a 30 s thinking time on a busy host): when that process dies, another takes
the game over after this, at its next sweep."""


class ComputerTurns:
    """One task per game whose computer seats must act; ``close`` cancels them (their searches resume later)."""

    def __init__(self, client: discord.Client, service: Games, poster: BoardPoster) -> None:
        self.client = client
        self.service = service
        self.poster = poster
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    def wake(self, game_id: int, after: Turn | None = None) -> None:
        """Play the computer's turns of ``game_id`` now, if any (a running task looks again when it ends); ``after``:
        the move just saved, trusted to tell whether the computer plays a seat that must act (no read when none)."""
        if game_id in self._tasks:
            self._again.add(game_id)
            return
        if after is not None and not after.computer_acts():
            return
        task = asyncio.get_running_loop().create_task(self._run(game_id), name=f"computer turns of game {game_id}")
        self._tasks[game_id] = task
        task.add_done_callback(lambda _: self._tasks.pop(game_id, None))

    async def resume_all(self) -> None:
        """At start-up: every active game in which a computer seat may have been interrupted."""
        for game_id in await self.service.games.games_with_computer_seats():
            self.wake(game_id)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, game_id: int) -> None:
        work = f"computer:{game_id}"
        try:
            while True:
                self._again.discard(game_id)
                due = await self.service.turns.computer_to_act(game_id)
                if not due:
                    if game_id in self._again:
                        continue
                    return
                if not await self.service.claims.claim(work, LEASE):  # another bot process plays this game's turns
                    return
                seat, level = due[0]
                game = await self.service.tables.game(game_id)
                cause = "computer_seat" if game is not None and game.by_seat()[seat].is_computer else "stand_in"
                try:
                    async with self.keeping(work, level, game.thinking if game is not None else DEFAULT_THINKING):
                        turn = await self.service.turns.play_for(game_id, seat, level=level, cause=cause)
                except Refusal as refusal:
                    if refusal.key == "raced":  # a person moved meanwhile (a simultaneous phase): look again
                        continue
                    log.info("game %s: the computer did not play for seat %s (%s)", game_id, seat, refusal.key)
                    return
                metrics.moved(turn.game.variant)
                await self.post(turn)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the computer's turn failed", game_id)
        finally:
            with contextlib.suppress(Exception):
                await self.service.claims.release(work)

    def keeping(self, work: str, level: str, thinking: float) -> contextlib.AbstractAsyncContextManager[None]:
        """While a move is searched: a search that may outlast half the lease (a 30 s thinking time takes up to
        300 s on a busy host) renews it meanwhile, so no other bot process takes the game over."""
        if longest_search(level, thinking) * 2 >= (self.service.claims.lease or LEASE):
            return renewing(self.service.claims, work, LEASE)
        return contextlib.nullcontext()

    async def post(self, turn: Turn) -> None:
        """The board after a computer's move, in the game's channel, like a person's (no reply to anyone): held back
        in the middle of a run (the grey wall's lines), told whole at its end."""
        if turn.held:  # its move's call told the run whole with its last move
            return
        game = turn.game
        try:
            channel = self.client.get_channel(game.channel_id) or await self.client.fetch_channel(game.channel_id)
        except discord.HTTPException:
            log.warning("game %s: the channel cannot be found to post the computer's move", game.id)
            return
        if not isinstance(channel, discord.abc.Messageable):
            return
        guild = getattr(channel, "guild", None)
        locale = guild_locale(guild)
        lines = [headline(turn, locale)]
        first_ply = game.version - turn.plies
        if turn.cause == "time_limit" or (
            turn.cause == "stand_in" and await self.service.turns.takes_over(game.id, turn.seat, first_ply)
        ):  # a take-over is said once, not on every move the computer makes for the seat
            seat = game.by_seat()[turn.seat]
            level = level_label(seat.level or "", locale)
            lines.append(
                text(f"bot.post.played_for.{turn.cause}", locale, player=seat_label(game, seat, locale), level=level)
            )
        try:
            await self.poster.post_board(
                channel,
                game,
                turn.state,
                guild=guild,
                headline="\n".join(lines),
                events=turn.events,
                ping=turn.to_ping(),
                held=turn.board,
                known=turn.known,
            )
        except (BoardNotPosted, discord.HTTPException):  # the sweep posts it later; the computer plays on
            log.warning("game %s: the computer's move is saved but its board could not be posted", game.id)
            metrics.post_failed("computer")


__all__ = ["ComputerTurns"]

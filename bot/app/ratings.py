"""Results and ratings: what a finished game leaves behind, and how it moves its players' ratings.

A finished game becomes one :class:`~bot.infra.store.ResultRow` (one row per seat with its score, place and outcome);
ratings are derived from the results alone, in the order they were stored, so :func:`rebuild` recomputes every
rating from scratch and gets the same numbers (a change of formula never loses history).

- Ratings are OpenSkill's Weng-Lin Plackett-Luce model (multiplayer, ties share a rank), one rating per game of the
  family: the variants of a game (Azul and its grey wall, ...) share one, since they reward the same skills.
- Players are ranked by the game's standings; a player who left (resigned, timed out and still handed to the
  computer at the end, dropped, or left the game's league) counts as a loss: placed after everyone who stayed,
  sharing that place with any other who left, whatever the computer scored for them. Aborted games leave no
  result at all.
- Computer seats are not rated and do not move anyone's rating: a computer's strength is not a person's, a level's
  strength is not calibrated against people (and differs from game to game), and a fixed anchor that is wrong would
  pull every rating towards its error, while a weak level could be farmed for points. In a rated game with computer
  seats the people are ranked among themselves; with fewer than two people nothing is rated. Games are rated by
  default only when every seat is human.
- Leaderboards sort by the conservative estimate ``mu - 3 sigma`` (OpenSkill's ``ordinal``): a newcomer with one
  lucky win does not top a player with a long record.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

import engine
from bot.infra.db import is_store_fault
from bot.infra.store import OUTCOMES, GameRow, ResultRow, ResultSeat, Seat, Skill, Store

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

log = logging.getLogger(__name__)


@cache
def model() -> PlackettLuce:
    """The rating model, built the first time a rating is needed: openskill's import is left out of start-up."""
    from openskill.models import PlackettLuce  # noqa: PLC0415

    return PlackettLuce()


Z = 3.0  # how many sigmas the leaderboard's conservative estimate takes off


def family_of(variant: str) -> str:
    """The game a variant belongs to: variants of one game share a rating."""
    return engine.get_variant(variant).game


def ordinal(skill: Skill) -> float:
    mu, sigma = skill
    return mu - Z * sigma


def initial() -> Skill:
    rating = model().rating()
    return (float(rating.mu), float(rating.sigma))


def is_computer(seat: Seat) -> bool:
    """Whether this is a computer's own seat (a level and no person): the one place that decides it for results
    and ratings. A person's seat the computer plays for them (``seat.computer_plays``) is still theirs to be
    rated, but as a loss: a person who left their seat ranks after everyone who stayed, whatever the computer
    scored in it (:func:`bot.app.results.standings_result`)."""
    return seat.is_computer


def is_rated(game: GameRow) -> bool:
    """The creator's choice; without one, a game is rated when every seat is a person's and hints are off."""
    if game.rated is not None:
        return game.rated
    return not game.hints and not any(is_computer(seat) for seat in game.seats)


def outcomes_of(result: Mapping[str, Any], players: int) -> list[str]:
    """Each seat's outcome: ``result["outcomes"]`` when a feature that ends games set it (time limits, dropped
    players), else ``played`` for all but the seat in ``result["resigned"]``."""
    given = result.get("outcomes")
    if isinstance(given, list) and len(given) == players and all(o in OUTCOMES for o in given):
        return [str(o) for o in given]
    outcomes = ["played"] * players
    resigned = result.get("resigned")
    if isinstance(resigned, int) and 0 <= resigned < players:
        outcomes[resigned] = "resigned"
    return outcomes


def places_of(standings: list[list[int]], outcomes: list[str]) -> list[int]:
    """Places from the standings in competition ranking (1, 1, 3), as the final post shows them; those who left
    share the place after everyone who stayed."""
    places = [0] * len(outcomes)
    ahead = 0
    for group in standings:
        stayed = [seat for seat in group if outcomes[seat] == "played"]
        for seat in stayed:
            places[seat] = ahead + 1
        ahead += len(stayed)
    for seat, outcome in enumerate(outcomes):
        if outcome != "played":
            places[seat] = ahead + 1
    return places


def result_of(game: GameRow, think: Mapping[int, tuple[int, float]]) -> ResultRow:
    """The result row of a finished game (``game.result`` holds its scores and standings)."""
    result = game.result or {}
    players = game.by_seat()
    scores = list(result.get("scores") or [0] * len(players))
    outcomes = outcomes_of(result, len(players))
    standings = result.get("standings") or [[seat] for seat in range(len(players))]
    places = places_of(standings, outcomes)
    seats = tuple(
        ResultSeat(
            seat=index,
            user_id=player.user_id,
            name=player.name,
            score=int(scores[index]),
            place=places[index],
            outcome=outcomes[index],
            computer=is_computer(player),
            moves=think.get(index, (0, 0.0))[0],
            think_seconds=think.get(index, (0, 0.0))[1],
        )
        for index, player in enumerate(players)
    )
    return ResultRow(
        id=0,
        game_id=game.id,
        family=family_of(game.variant),
        variant=game.variant,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        rated=is_rated(game),
        finished_at=game.turn_since,
        seats=seats,
    )


def rate(result: ResultRow, before: Mapping[int, Skill]) -> dict[int, Skill]:
    """Every rated player's rating after ``result``, from their ratings before it (a newcomer starts at 25 ± 8.3)."""
    people = [(seat.user_id, seat) for seat in result.seats if seat.user_id is not None and not seat.computer]
    if len(people) < 2:
        return {}
    teams = [[model().rating(*before.get(user_id, initial()))] for user_id, _ in people]
    rated = model().rate(teams, ranks=[float(seat.place) for _, seat in people])
    # A player who asked to be forgotten (a negative id: bot.infra.store.Users.forget_user) still counts for the others,
    # but keeps no rating of their own.
    return {
        user_id: (float(team[0].mu), float(team[0].sigma))
        for (user_id, _), team in zip(people, rated, strict=True)
        if user_id > 0
    }


async def settle(store: Store, game: GameRow) -> int | None:
    """Store the result of a finished game and move its ratings (once; None if it was settled already)."""
    if game.status != "over":
        return None
    think = await store.moves.think_times(game.id)
    return await store.results.settle(result_of(game, think), rate)


async def settle_pending(store: Store) -> int:
    """Settle finished games that have no result yet (the bot stopped in between); returns how many."""
    settled = 0
    for game_id in await store.results.unsettled_games():
        game = await store.games.game(game_id)
        if game is None or game.broken:
            continue
        try:
            if await settle(store, game) is not None:
                settled += 1
        except Exception as error:  # one damaged result must not stop the bot from starting
            if is_store_fault(error):
                raise
            log.exception("game %s: its result could not be recorded", game_id)
    return settled


async def rebuild(store: Store) -> int:
    """Recompute every rating and its history from the stored results; returns how many rated games it replayed."""
    return await store.results.rebuild_ratings(rate)


__all__ = [
    "Z",
    "family_of",
    "initial",
    "is_computer",
    "is_rated",
    "model",
    "ordinal",
    "outcomes_of",
    "places_of",
    "rate",
    "rebuild",
    "result_of",
    "settle",
    "settle_pending",
]

"""A finished game's result (scores and standings, everyone who left ranked last) and its settlement: the result and
ratings recorded, and whoever listens (the leagues) told."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import engine
from bot.app import ratings
from bot.infra.store import GameResult, GameRow, Store
from engine import GameState

log = logging.getLogger(__name__)


def result_of(game: GameRow, state: GameState, resigned: Sequence[int] = ()) -> GameResult:
    """The result of ``game`` ending at ``state``: every seat whose person left it (resigned, dropped, withdrew from
    its league, or still handed to the computer after running out of time) ranks after those who stayed.
    ``resigned``: the seat whose resignation ends the game, if one does."""
    return standings_result(
        state,
        resigned=[*game.resigned_seats(), *resigned],
        dropped=game.dropped_seats(),
        stood_in=game.stand_in_seats(),
    )


def standings_result(
    state: GameState, resigned: Sequence[int] = (), dropped: Sequence[int] = (), stood_in: Sequence[int] = ()
) -> GameResult:
    """Scores and standings: those who played to the end by the rules' standings, then everyone who left, sharing the
    last place whatever the computer scored for them (how long someone stayed before leaving is no result, and ranking
    leavers by it would only start a race to leave second). ``resigned`` may also be among ``dropped`` (a player who
    resigned while the others played on was dropped too); ``stood_in``: seats the computer still plays for people
    whose time ran out too often."""
    quit_ = list(dict.fromkeys(resigned))  # in the order they resigned: the last one ended the game
    dropped_ = sorted(set(dropped) - set(quit_))
    timed_out = sorted(set(stood_in) - set(dropped_) - set(quit_))
    gone = {*timed_out, *dropped_, *quit_}
    standings = [[s for s in group if s not in gone] for group in engine.standings(state)]
    standings = [group for group in standings if group]
    standings += [sorted(gone)] if gone else []
    result: GameResult = {
        "scores": engine.scores(state),
        "standings": standings,
        "resigned": quit_[-1] if quit_ else None,
    }
    if timed_out or dropped_ or len(quit_) > 1:
        outcomes = ["played"] * len(result["scores"])
        for seats, outcome in ((timed_out, "timed_out"), (dropped_, "dropped"), (quit_, "resigned")):
            for seat in seats:
                outcomes[seat] = outcome
        result["outcomes"] = outcomes
    return result


class Settlement:
    """Records finished games' results and ratings, and tells its listeners."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.on_settled: list[Callable[[GameRow], None]] = []
        """Called with every game whose result was just recorded (leagues record theirs from it)."""

    async def settle(self, game: GameRow) -> None:
        """Record a finished game's result and ratings. A failure here must not undo the finished game: it is logged,
        and :meth:`settle_pending` (run at start-up) records the result later."""
        try:
            await ratings.settle(self.store, game)
        except Exception:
            log.exception("game %s: its result could not be recorded", game.id)
            return
        for listener in self.on_settled:
            listener(game)

    async def settle_pending(self) -> int:
        return await ratings.settle_pending(self.store)

"""The base of every game adapter: how the bot puts one game of the family into words.

Every method has a catalogue-driven default; see :mod:`bot.games` for how to add a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import engine
from data.i18n import has, t
from engine import Event, GameState, Move, Variant


def variant_label(variant: str, locale: str | None) -> str:
    """A variant's name in words (``bot.variant.<name>``), else the engine's name for it."""
    key = f"bot.variant.{variant}"
    return t(key, locale) if has(key, locale) else variant


def points_of(value: object) -> int:
    """A number of points from an event's data (anything else counts 0)."""
    return int(value) if isinstance(value, int | float) else 0


def sample_events(*events: Event) -> list[Event]:
    """The events of one sample move, for :meth:`GameAdapter.phrase_samples`."""
    return list(events)


S = TypeVar("S", bound=GameState)
"""The game's state type: an adapter reads its own game's states only."""


class GameAdapter(Generic[S]):
    """The words of one game, generic in its state type (``GameAdapter[AzulState]``). Subclass it; every method has
    a catalogue-driven default."""

    game: str = ""
    short_name: str = ""
    """The short name in this game's own catalogue keys (``bot.qg.…``, errors ``qg_…``), if they have one."""
    score_parts: tuple[str, ...] = ()
    """The game's scoring categories, in the order the end-of-game summary names them (``bot.summary.part.<name>``);
    ``start`` is filled with the scores before the first move. They must add up to the final score."""

    @property
    def commands(self) -> tuple[str, ...]:
        """Every move command of this game's variants, as the engine declares them."""
        names = (
            declared.name
            for name in engine.variant_names()
            if (variant := engine.get_variant(name)).game == self.game
            for declared in variant.commands
        )
        return tuple(dict.fromkeys(names))

    def variant_label(self, variant: str, locale: str | None) -> str:
        return variant_label(variant, locale)

    def rules(self, variant: str, locale: str | None) -> str:
        return t(f"bot.rules.{variant}", locale)

    def command_label(self, command: str, locale: str | None) -> str:
        """What a move command does, for the picker's first step ("Take tiles", "Place a tile on the wall")."""
        return t(f"bot.command.{command}", locale)

    def option_label(self, option: str, locale: str | None) -> str:
        """The name of an option in the picker's prompt ("source", "line")."""
        key = f"bot.option.{option}"
        return t(key, locale) if has(key, locale) else option

    def label(
        self, state: S, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        """``token`` of ``option`` in words for ``seat``, given the options ``chosen`` so far."""
        key = f"bot.token.{self.game}.{option}.{token}"
        return t(key, locale) if has(key, locale) else token

    def words(
        self, state: S, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        """``token`` in words for a menu: its :meth:`label` without the code that leads it for people who type
        (``ye3@d1 — yellow tree (1) from display d1``); codes stay only where people type them."""
        return self.label(state, seat, option, token, chosen=chosen, locale=locale).removeprefix(f"{token} — ")

    def confirm(self, state: S, seat: int, command: str, chosen: Mapping[str, str], locale: str | None) -> str:
        """The whole move as one question before it is played ("Take 1 red tile from factory 5 to line 1?"), built
        from the choices alone: applying the move could reveal the next deal. A game without its own sentence for
        ``command`` (``bot.confirm.<game>.<command>``) asks with the command and its choices' labels."""
        params = self.confirm_params(state, seat, command, chosen, locale)
        key = f"bot.confirm.{self.game}.{command}"
        if params is not None and has(key, locale):
            return t(key, locale, **params)
        labels = []
        so_far: dict[str, str] = {}
        for option, token in chosen.items():
            labels.append(self.words(state, seat, option, token, chosen=so_far, locale=locale))
            so_far[option] = token
        return t("bot.confirm.any", locale, command=self.command_label(command, locale), choices=", ".join(labels))

    def confirm_run(
        self, state: S, seat: int, command: str, run: Sequence[Mapping[str, str]], locale: str | None
    ) -> str:
        """Moves played together (a grey wall's columns) as one question; by default each move's own, in turn."""
        return " ".join(self.confirm(state, seat, command, chosen, locale) for chosen in run)

    def confirm_params(
        self, state: S, seat: int, command: str, chosen: Mapping[str, str], locale: str | None
    ) -> dict[str, Any] | None:
        """The parameters of ``command``'s confirm sentence, or None for the generic question."""
        return None

    def cost(self, state: S, seat: int, command: str, chosen: Mapping[str, str]) -> int:
        """The points the move takes off ``seat``'s score, by the engine's own scoring: the move is applied to a
        copy and what its events charged is read (:meth:`cost_of`). 0 for a move that costs nothing or is not
        complete or legal (the move itself then answers why)."""
        variant = engine.variant_of(state)
        try:
            _, events = variant.apply(state, seat, variant.move_from_choices(command, chosen))
        except engine.EngineError:
            return 0
        return self.cost_of(state, seat, events)

    def cost_of(self, state: S, seat: int, events: Sequence[Event]) -> int:
        """What the events of ``seat``'s move charged it (penalties only, never what later scoring adds)."""
        return 0

    def cost_clause(self, points: int, locale: str | None) -> str:
        """The cost at the end of a confirm question (", losing 3 points"), or nothing when the move is free."""
        return t("bot.confirm.cost", locale, count=points) if points > 0 else ""

    def error_params(self, params: Mapping[str, Any], locale: str | None) -> dict[str, Any]:
        """The parameters of one of this game's refusals (``error.<short_name>_…``) in words: the engine names
        colours, hexagons and places by their codes, which a player never reads. As given by default."""
        return dict(params)

    def event_params(self, event: Event, names: Sequence[str], locale: str | None) -> dict[str, Any]:
        """The parameters of an event's text: its data plus ``player``; override to put raw values into words."""
        params: dict[str, Any] = dict(event.data)
        if event.seat is not None and 0 <= event.seat < len(names):
            params["player"] = names[event.seat]
        return params

    def turn_prompt(self, state: S, players: str, locale: str | None) -> str | None:
        """Who must act now, when the game has its own words for the phase (``players``: the formatted names or
        mentions); None for the bot's plain "Your turn: ..."."""
        return None

    # --- the end-of-game summary --------------------------------------------------------------------------------
    def count_points(self, parts: dict[str, list[int]], event: Event) -> None:
        """Add what ``event`` scored to ``parts`` (each of :attr:`score_parts`: points per seat, penalties
        negative)."""

    def settle_points(self, parts: dict[str, list[int]], final: Sequence[int]) -> None:
        """Adjust ``parts`` once every event is counted, given the ``final`` scores (for what events leave out)."""

    def tie_break(
        self, state: S, ahead: Sequence[int], behind: Sequence[int], names: Sequence[str], locale: str | None
    ) -> str | None:
        """Why the seats ``ahead`` rank above those ``behind`` with equal points, in words; None: they do not."""
        return None

    def shared_place(self, names: str, locale: str | None) -> str:
        """That the seats ``names`` (formatted) share a place: equal points and whatever tie-break the game has."""
        return t("bot.summary.shared", locale, names=names)

    def phrase_samples(self) -> list[tuple[str, list[Event]]]:
        """Named sample moves, as the events the engine reports for them: the phrase table (``python -m
        tools.phrases``) shows each as :meth:`describe` words it, in every language. None by default."""
        return []

    def phrase_params(self) -> Mapping[str, Any]:
        """Sample values for the parameters of this game's texts, for the phrase table: a value, or a function of
        the text's key and the language (for words that decline). None by default."""
        return {}

    def phrase_tables(self) -> list[tuple[str, str, list[tuple[str, Callable[[str], str]]]]]:
        """Tables of the game's own words for the phrase table: each a title, its first column's heading and its
        rows (a row's name and its text in a given language). None by default."""
        return []

    def preview_candidate(self, variant: Variant[Any], command: str, choices: Mapping[str, str]) -> tuple[str, Move]:
        """One choice of a step that shows a picture (the options ``MoveCommand.previews`` names): its mark on the
        picture, which its label must name (the tokens of the previewed options joined by ``-``), and the move drawn
        for it. ``choices`` may lack options chosen after the step; a game whose moves need them fills them in."""
        declared = variant.command(command)
        previews = declared.previews if declared else ()
        mark = "-".join(choices[option] for option in previews if choices.get(option))
        return mark, variant.move_from_choices(command, choices)

    def preview_note(self, command: str, locale: str | None) -> str:
        """The line under a step that shows a picture, saying what the picture shows (``bot.preview.<command>``)."""
        return t(f"bot.preview.{command}", locale)

    def describe(self, events: Sequence[Event], names: Sequence[str], locale: str | None) -> str:
        """The events of one move as one line of words (empty when none has a text)."""
        phrases = []
        for event in events:
            key = f"bot.event.{self.game}.{event.kind}"
            if has(key, locale):
                phrases.append(t(key, locale, **self.event_params(event, names, locale)))
        return " · ".join(phrase for phrase in phrases if phrase)


__all__ = ["GameAdapter"]

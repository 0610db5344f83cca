"""The base of every game adapter: how the bot puts one game of the family into words.

Every method has a catalogue-driven default; see :mod:`bot.games` for how to add a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from data.i18n import has, t
from engine import Event, GameState


def variant_label(variant: str, locale: str | None) -> str:
    """A variant's name in words (``bot.variant.<name>``), else the engine's name for it."""
    key = f"bot.variant.{variant}"
    return t(key, locale) if has(key, locale) else variant


class GameAdapter:
    """The words of one game. Subclass it; every method has a catalogue-driven default."""

    game: str = ""

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
        self, state: GameState, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        """``token`` of ``option`` in words for ``seat``, given the options ``chosen`` so far."""
        key = f"bot.token.{self.game}.{option}.{token}"
        return t(key, locale) if has(key, locale) else token

    def words(
        self, state: GameState, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        """``token`` in words for a menu: its :meth:`label` without the code that leads it for people who type
        (``ye3@d1 — yellow tree (1) from display d1``); codes stay only where people type them."""
        return self.label(state, seat, option, token, chosen=chosen, locale=locale).removeprefix(f"{token} — ")

    def confirm(self, state: GameState, seat: int, command: str, chosen: Mapping[str, str], locale: str | None) -> str:
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
        self, state: GameState, seat: int, command: str, run: Sequence[Mapping[str, str]], locale: str | None
    ) -> str:
        """Moves played together (a grey wall's columns) as one question; by default each move's own, in turn."""
        return " ".join(self.confirm(state, seat, command, chosen, locale) for chosen in run)

    def confirm_params(
        self, state: GameState, seat: int, command: str, chosen: Mapping[str, str], locale: str | None
    ) -> dict[str, Any] | None:
        """The parameters of ``command``'s confirm sentence, or None for the generic question."""
        return None

    def event_params(self, event: Event, names: Sequence[str], locale: str | None) -> dict[str, Any]:
        """The parameters of an event's text: its data plus ``player``; override to put raw values into words."""
        params: dict[str, Any] = dict(event.data)
        if event.seat is not None and 0 <= event.seat < len(names):
            params["player"] = names[event.seat]
        return params

    def turn_prompt(self, state: GameState, players: str, locale: str | None) -> str | None:
        """Who must act now, when the game has its own words for the phase (``players``: the formatted names or
        mentions); None for the bot's plain "Your turn: ..."."""
        return None

    def describe(self, events: Sequence[Event], names: Sequence[str], locale: str | None) -> str:
        """The events of one move as one line of words (empty when none has a text)."""
        phrases = []
        for event in events:
            key = f"bot.event.{self.game}.{event.kind}"
            if has(key, locale):
                phrases.append(t(key, locale, **self.event_params(event, names, locale)))
        return " · ".join(phrase for phrase in phrases if phrase)


__all__ = ["GameAdapter"]

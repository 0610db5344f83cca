"""Azul (coloured and grey wall) in words: factories, colours and lines as players say them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games import GameAdapter
from data.i18n import t
from engine import Event

COLORS = ("blue", "yellow", "red", "black", "white")


def color_index(token: Any) -> int | None:
    """A colour as the engine may spell it (a name or its index) → its index."""
    text = str(token).strip().lower()
    if text in COLORS:
        return COLORS.index(text)
    if text.isdigit() and int(text) < len(COLORS):
        return int(text)
    return None


class AzulAdapter(GameAdapter):
    game = "azul"
    commands = ("take", "wall")

    def color_name(self, token: Any, locale: str | None) -> str:
        index = color_index(token)
        return t(f"bot.azul.color.{COLORS[index]}", locale) if index is not None else str(token)

    def source_name(self, token: str, locale: str | None) -> str:
        if token == "centre":
            return t("bot.azul.centre", locale)
        return t("bot.azul.factory", locale, number=token)

    def _source_tiles(self, state: Any, token: str) -> list[int] | None:
        if token == "centre":
            return list(state.centre)
        if token.isdigit() and 1 <= int(token) <= len(state.factories):
            return list(state.factories[int(token) - 1])
        return None

    def _contents(self, tiles: Sequence[int], locale: str | None) -> str:
        parts = [f"{count}× {self.color_name(color, locale)}" for color, count in enumerate(tiles) if count]
        return ", ".join(parts) if parts else t("bot.azul.empty", locale)

    def label(
        self, state: Any, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        if option == "source":
            tiles = self._source_tiles(state, token)
            text = self.source_name(token, locale)
            if tiles is not None:
                text += " — " + self._contents(tiles, locale)
            if token == "centre" and getattr(state, "marker_in_centre", False):
                text += " " + t("bot.azul.with_marker", locale)
            return text
        if option == "color":
            tiles = self._source_tiles(state, chosen["source"]) if chosen.get("source") else None
            index = color_index(token)
            if tiles is not None and index is not None:
                return (
                    f"{self.source_name(chosen['source'], locale)} — {tiles[index]}× {self.color_name(token, locale)}"
                )
            return self.color_name(token, locale)
        if option == "line":
            return self._line_label(state, seat, token, chosen=chosen, locale=locale)
        if option == "column":
            return t("bot.azul.column", locale, number=token)
        return super().label(state, seat, option, token, chosen=chosen, locale=locale)

    def _line_label(self, state: Any, seat: int, token: str, *, chosen: Mapping[str, str], locale: str | None) -> str:
        if token == "floor":
            return t("bot.azul.floor", locale)
        if not token.isdigit() or not 1 <= int(token) <= 5:
            return token
        row = int(token) - 1
        board = state.boards[seat]
        if getattr(state, "phase", "") == "wall":
            color = board.line_color[row]
            return t("bot.azul.full_line", locale, number=token, color=self.color_name(color, locale))
        free = row + 1 - board.line_count[row]
        text = t("bot.azul.line", locale, number=token, count=free)
        tiles = self._source_tiles(state, chosen["source"]) if chosen.get("source") else None
        index = color_index(chosen.get("color", ""))
        if tiles is not None and index is not None and tiles[index] > free:
            text += " " + t("bot.azul.overflow", locale, count=tiles[index] - free)
        return text

    def event_params(self, event: Event, names: Sequence[str], locale: str | None) -> dict[str, Any]:
        params = super().event_params(event, names, locale)
        if "color" in params:
            params["color"] = self.color_name(params["color"], locale)
        if "source" in params:
            params["source"] = self.source_name(str(params["source"]), locale)
        if "line" in params:
            line = str(params["line"])
            params["line"] = (
                t("bot.azul.floor", locale) if line == "floor" else t("bot.azul.line_n", locale, number=line)
            )
        return params


ADAPTER = AzulAdapter()

"""Azul (coloured and grey wall) in words: factories, colours and lines as players say them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import GameAdapter, points_of
from bot.games.base import sample_events as _events
from data.i18n import t, word
from engine import Event
from engine.azul import COLOR_BONUS, COLUMN_BONUS, FLOOR_SIZE, ROW_BONUS, AzulState, complete_rows, floor_penalty

COLORS = ("blue", "yellow", "red", "black", "white")


def color_index(token: Any) -> int | None:
    """A colour as the engine may spell it (a name or its index) → its index."""
    text = str(token).strip().lower()
    if text in COLORS:
        return COLORS.index(text)
    if text.isdecimal() and int(text) < len(COLORS):
        return int(text)
    return None


class AzulAdapter(GameAdapter[AzulState]):
    game = "azul"
    short_name = "azul"

    def phrase_params(self) -> Mapping[str, Any]:
        return {
            "color": lambda key, lang: word("bot.azul.color.red", lang),
            "line_color": lambda key, lang: word("bot.azul.color.blue", lang),
            "line": lambda key, lang: t("bot.azul.to_line", lang, number=2) if key == "bot.event.azul.take" else 2,
        }

    score_parts = ("wall", "floor", "rows", "columns", "colours")

    def count_points(self, parts: dict[str, list[int]], event: Event) -> None:
        seat, data = event.seat, event.data
        if seat is None:
            return
        if event.kind == "wall":
            parts["wall"][seat] += points_of(data.get("points"))
        elif event.kind == "floor_penalty":
            parts["floor"][seat] += points_of(data.get("applied"))  # what it took off: a score never goes below 0
        elif event.kind == "bonus":
            parts["rows"][seat] += points_of(data.get("rows")) * ROW_BONUS
            parts["columns"][seat] += points_of(data.get("columns")) * COLUMN_BONUS
            parts["colours"][seat] += points_of(data.get("colors")) * COLOR_BONUS

    def tie_break(
        self, state: AzulState, ahead: Sequence[int], behind: Sequence[int], names: Sequence[str], locale: str | None
    ) -> str:
        """The rulebook's tie-break: more complete rows."""
        return t(
            "bot.summary.tie_rows",
            locale,
            ahead=", ".join(f"**{names[seat]}**" for seat in ahead),
            behind=", ".join(f"**{names[seat]}**" for seat in behind),
            rows=complete_rows(state.boards[ahead[0]].wall),
            other=complete_rows(state.boards[behind[0]].wall),
        )

    def shared_place(self, names: str, locale: str | None) -> str:
        return t("bot.summary.shared_azul", locale, names=names)

    def phrase_samples(self) -> list[tuple[str, list[Event]]]:
        take = {"source": 2, "color": 0, "line": 2, "to_line": 2, "to_lid": 0, "marker": False}
        return [
            ("azul take 1", _events(Event("take", 0, {**take, "count": 1, "to_floor": 0}))),
            ("azul take 3, overflow", _events(Event("take", 0, {**take, "count": 3, "to_floor": 1}))),
            (
                "azul take 5 centre",
                _events(Event("take", 1, {**take, "source": "centre", "count": 5, "to_floor": 3, "marker": True})),
            ),
            (
                "azul take floor",
                _events(Event("take", 2, {**take, "color": 4, "count": 2, "line": "floor", "to_floor": 2})),
            ),
            ("azul wall", _events(Event("wall", 0, {"row": 1, "col": 3, "color": 4, "points": 3}))),
            ("azul line to floor", _events(Event("line_to_floor", 1, {"row": 3, "count": 4}))),
            (
                "azul round",
                _events(
                    Event("take", 0, {**take, "count": 1, "to_floor": 0}),
                    Event("wall", 0, {"row": 0, "col": 0, "color": 0, "points": 1}),
                    Event("wall", 1, {"row": 1, "col": 2, "color": 2, "points": 2}),
                    Event("floor_penalty", 1, {"points": -2, "applied": -2, "tiles": 2}),
                    Event("round_scored", None, {"round": 1, "scores": [1, 0]}),
                    Event("round_started", None, {"round": 2, "start_seat": 1}),
                ),
            ),
            ("azul bonus", _events(Event("bonus", 0, {"points": 12}), Event("bonus", 1, {"points": 2}))),
        ]

    def color_name(self, token: Any, locale: str | None) -> str:
        index = color_index(token)
        return word(f"bot.azul.color.{COLORS[index]}", locale) if index is not None else str(token)

    def error_params(self, params: Mapping[str, Any], locale: str | None) -> dict[str, Any]:
        """Colours as players see them (the engine's ``white`` is turquoise)."""
        said = dict(params)
        for name in ("color", "line_color"):
            if color_index(said.get(name, "")) is not None:
                said[name] = self.color_name(said[name], locale)
        return said

    def source_name(self, token: str, locale: str | None) -> str:
        if token == "centre":
            return t("bot.azul.centre", locale)
        return t("bot.azul.factory", locale, number=token)

    def _source_tiles(self, state: AzulState, token: str) -> list[int] | None:
        if token == "centre":
            return list(state.centre)
        if token.isdecimal() and 1 <= int(token) <= len(state.factories):
            return list(state.factories[int(token) - 1])
        return None

    def _contents(self, tiles: Sequence[int], locale: str | None) -> str:
        parts = [f"{count}× {self.color_name(color, locale)}" for color, count in enumerate(tiles) if count]
        return ", ".join(parts) if parts else t("bot.azul.empty", locale)

    def label(
        self, state: AzulState, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        if option == "source":
            tiles = self._source_tiles(state, token)
            text = self.source_name(token, locale)
            if tiles is not None:
                text += " — " + self._contents(tiles, locale)
            if token == "centre" and state.marker_in_centre:
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

    def confirm_params(
        self, state: AzulState, seat: int, command: str, chosen: Mapping[str, str], locale: str | None
    ) -> dict[str, Any] | None:
        line = chosen.get("line", "")
        if command == "wall" and line.isdecimal() and chosen.get("column", "").isdecimal():
            color = state.boards[seat].line_color[int(line) - 1]
            return {"color": self.color_name(color, locale), "line": line, "column": chosen["column"]}
        tiles = self._source_tiles(state, chosen.get("source", ""))
        index = color_index(chosen.get("color", ""))
        if command != "take" or tiles is None or index is None or not (line == "floor" or line.isdecimal()):
            return None
        count = tiles[index]
        extra = ""
        if line == "floor":
            where = t("bot.azul.to_floor", locale)
        else:
            where = t("bot.azul.to_line", locale, number=line)
            free = int(line) - state.boards[seat].line_count[int(line) - 1]
            if count > free:
                extra = " " + t("bot.confirm.azul.overflow", locale, count=count - free)
        source = chosen["source"]
        if source == "centre" and getattr(state, "marker_in_centre", False):
            extra += " " + t("bot.azul.with_marker", locale)
        cost = self.cost(state, seat, command, chosen)
        if cost:
            extra += t("bot.confirm.azul.floor_cost", locale, count=cost)
        return {
            "count": count,
            "color": self.color_name(index, locale),
            "source": t("bot.azul.from_centre", locale)
            if source == "centre"
            else t("bot.azul.from_factory", locale, number=source),
            "line": where + extra,
        }

    def cost_of(self, state: AzulState, seat: int, events: Sequence[Event]) -> int:
        """The floor's printed penalty for the spaces this take fills (charged at the round's end, when the
        wall's points may keep the score from going under 0)."""
        before = len(state.boards[seat].floor)
        after = before
        for event in events:
            if event.kind == "take" and event.seat == seat:
                after += int(event.data.get("to_floor", 0)) + bool(event.data.get("marker"))
        return floor_penalty(before) - floor_penalty(min(after, FLOOR_SIZE))

    def confirm_run(
        self, state: AzulState, seat: int, command: str, run: Sequence[Mapping[str, str]], locale: str | None
    ) -> str:
        """A grey wall's lines tiled together: "Place the blue tile of line 1 in column 2 and … ?"."""
        params = [self.confirm_params(state, seat, command, chosen, locale) for chosen in run]
        if command != "wall" or len(run) < 2 or any(found is None for found in params):
            return super().confirm_run(state, seat, command, run, locale)
        parts = [t("bot.confirm.azul.wall_part", locale, **found) for found in params if found is not None]
        moves = t("bot.picker.and", locale, first=", ".join(parts[:-1]), second=parts[-1])
        return t("bot.confirm.azul.wall_run", locale, moves=moves)

    def _line_label(
        self, state: AzulState, seat: int, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        if token == "floor":
            return t("bot.azul.floor", locale)
        if not token.isdecimal() or not 1 <= int(token) <= 5:
            return token
        row = int(token) - 1
        board = state.boards[seat]
        if state.phase == "wall":
            color = board.line_color[row]
            return t("bot.azul.full_line", locale, number=token, color=self.color_name(color, locale))
        free = row + 1 - board.line_count[row]
        text = t("bot.azul.line", locale, number=token, count=free)
        tiles = self._source_tiles(state, chosen["source"]) if chosen.get("source") else None
        index = color_index(chosen.get("color", ""))
        if tiles is not None and index is not None and tiles[index] > free:
            text += " " + t("bot.azul.overflow", locale, count=tiles[index] - free)
        return text

    def turn_prompt(self, state: AzulState, players: str, locale: str | None) -> str | None:
        if state.phase == "wall":
            return t("bot.azul.to_act_wall", locale, players=players)
        return None

    # --- events -------------------------------------------------------------------------------------------------
    def _from_source(self, source: Any, locale: str | None) -> str:
        """ "from Factory 3" / "from the centre" (events name factories from 0, as transcripts do)."""
        if source == "centre":
            return t("bot.azul.from_centre", locale)
        return t("bot.azul.from_factory", locale, number=int(source) + 1)

    def _take(self, event: Event, names: Sequence[str], locale: str | None) -> str:
        data = event.data
        line = data.get("line")
        where = t("bot.azul.to_floor", locale) if line == "floor" else t("bot.azul.to_line", locale, number=line)
        text = t(
            "bot.event.azul.take",
            locale,
            player=names[event.seat or 0],
            count=data.get("count", 0),
            color=self.color_name(data.get("color"), locale),
            source=self._from_source(data.get("source"), locale),
            line=where,
        )
        if line != "floor" and data.get("to_floor"):
            text += " " + t("bot.azul.overflow", locale, count=data["to_floor"])
        if data.get("marker"):
            text += " " + t("bot.event.azul.marker", locale)
        return text

    def _per_seat(self, points: dict[int, int], names: Sequence[str]) -> str:
        return ", ".join(f"{names[seat]} {value:+d}".replace("-", "−") for seat, value in sorted(points.items()))

    def describe(self, events: Sequence[Event], names: Sequence[str], locale: str | None) -> str:
        phrases: list[str] = []
        took = any(event.kind == "take" for event in events)
        wall: dict[int, int] = {}
        floor: dict[int, int] = {}
        bonus: dict[int, int] = {}
        for event in events:
            data, seat = event.data, event.seat if event.seat is not None else 0
            if event.kind == "take":
                phrases.append(self._take(event, names, locale))
            elif event.kind == "wall" and not took:
                phrases.append(
                    t(
                        "bot.event.azul.wall",
                        locale,
                        player=names[seat],
                        color=self.color_name(data.get("color"), locale),
                        row=int(data.get("row", 0)) + 1,
                        column=int(data.get("col", 0)) + 1,
                        points=data.get("points", 0),
                    )
                )
            elif event.kind == "wall":
                wall[seat] = wall.get(seat, 0) + int(data.get("points", 0))
            elif event.kind == "line_to_floor":
                phrases.append(
                    t(
                        "bot.event.azul.line_to_floor",
                        locale,
                        player=names[seat],
                        line=int(data.get("row", 0)) + 1,
                        count=data.get("count", 0),
                    )
                )
            elif event.kind == "floor_penalty" and data.get("applied"):
                floor[seat] = floor.get(seat, 0) + int(data["applied"])
            elif event.kind == "round_scored":
                if wall:
                    phrases.append(t("bot.event.azul.wall_points", locale, points=self._per_seat(wall, names)))
                if floor:
                    phrases.append(t("bot.event.azul.floor_points", locale, points=self._per_seat(floor, names)))
                scores = data.get("scores") or []
                totals = ", ".join(f"{names[s]} {score}" for s, score in enumerate(scores) if s < len(names))
                phrases.append(t("bot.event.azul.round_scored", locale, round=data.get("round"), scores=totals))
                wall, floor = {}, {}
            elif event.kind == "bonus" and data.get("points"):
                bonus[seat] = int(data["points"])
            elif event.kind == "round_started" and int(data.get("round", 1)) > 1:
                start = int(data.get("start_seat", 0))
                phrases.append(
                    t(
                        "bot.event.azul.round_started",
                        locale,
                        round=data.get("round"),
                        player=names[start] if start < len(names) else "?",
                    )
                )
        if bonus:
            phrases.append(t("bot.event.azul.bonus", locale, points=self._per_seat(bonus, names)))
        return " · ".join(phrases)


ADAPTER = AzulAdapter()

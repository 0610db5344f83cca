"""Azul: Summer Pavilion (front and monochrome side) in words: sources, stars, spaces with their cost, points and
bonus, wild tiles, bonus picks and kept tiles, as players say them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import GameAdapter, points_of
from bot.games.base import sample_events as _events
from data.i18n import Word, t, word
from engine import Event
from engine.core import BadNotation
from engine.summer_pavilion import (
    CENTRE,
    COLORS,
    FRONT_STAR_COLORS,
    LETTERS,
    NCOLORS,
    STRUCTURES_AT,
    SPState,
    arc_points,
    parse_multiset,
    space_cost,
)


def color_index(token: Any) -> int | None:
    """A colour as the engine or a token spells it (name, letter or index) → its index."""
    text = str(token).strip().lower()
    if text in COLORS:
        return COLORS.index(text)
    if len(text) == 1 and text in LETTERS:
        return LETTERS.index(text)
    if text.isdecimal() and int(text) < NCOLORS:
        return int(text)
    return None


def multiset(token: str) -> tuple[int, ...] | None:
    try:
        return parse_multiset(token)
    except BadNotation:
        return None


LABEL_LIMIT = 100  # Discord's limit for a choice's name


class SummerPavilionAdapter(GameAdapter[SPState]):
    game = "summer-pavilion"
    short_name = "sp"

    def phrase_params(self) -> Mapping[str, Any]:
        def star(key: str, lang: str) -> str | Word:
            if key.startswith("bot.event"):
                return t("bot.sp.of_star.number", lang, number=3)
            return word("bot.sp.color.green", lang)

        return {
            "color": lambda key, lang: word("bot.sp.color.orange", lang),
            "wild": lambda key, lang: word("bot.sp.color.purple", lang),
            "star": star,
        }

    score_parts = ("start", "placed", "penalties", "stars", "numbers")

    def count_points(self, parts: dict[str, list[int]], event: Event) -> None:
        seat, data = event.seat, event.data
        if seat is None:
            return
        if event.kind == "place":
            parts["placed"][seat] += points_of(data.get("points"))
        elif event.kind in ("pass", "start_tile"):
            parts["penalties"][seat] -= points_of(data.get("penalty"))
        elif event.kind == "end_bonus":
            parts["stars"][seat] += sum(points_of(star.get("points")) for star in data.get("stars") or [])
            parts["numbers"][seat] += sum(points_of(cost.get("points")) for cost in data.get("costs") or [])

    def phrase_samples(self) -> list[tuple[str, list[Event]]]:
        return [
            ("sp take", _events(Event("take", 0, {"source": 1, "color": 2, "count": 3, "wild": True}))),
            (
                "sp take 1 centre",
                _events(
                    Event("take", 1, {"source": "centre", "color": 0, "count": 1, "wild": False}),
                    Event("start_tile", 1, {"penalty": 1}),
                ),
            ),
            (
                "sp place",
                _events(
                    Event(
                        "place", 1, {"star": 2, "star_token": "blue", "space": 5, "color": 4, "points": 3, "wilds": 2}
                    )
                ),
            ),
            (
                "sp place numbered star",
                _events(
                    Event("place", 0, {"star": 0, "star_token": "1", "space": 0, "color": 1, "points": 1, "wilds": 1})
                ),
            ),
            (
                "sp place centre star",
                _events(
                    Event(
                        "place", 0, {"star": 6, "star_token": "centre", "space": 2, "color": 5, "points": 4, "wilds": 0}
                    )
                ),
            ),
            (
                "sp bonus",
                _events(Event("bonus_earned", 0, {"count": 2}), Event("bonus_taken", 0, {"tiles": [1, 0, 0, 1, 0, 0]})),
            ),
            (
                "sp pass",
                _events(Event("pass", 0, {"kept": [0, 4, 0, 0, 0, 0], "discarded": [0, 0, 0, 0, 0, 2], "penalty": 2})),
            ),
            (
                "sp pass 1 discarded",
                _events(Event("pass", 0, {"kept": [1, 0, 0, 0, 0, 0], "discarded": [0, 0, 0, 0, 0, 1], "penalty": 1})),
            ),
            (
                "sp pass auto",
                _events(
                    Event(
                        "pass",
                        2,
                        {"kept": [0, 0, 0, 0, 0, 0], "discarded": [0, 0, 0, 0, 0, 7], "penalty": 7, "auto": True},
                    )
                ),
            ),
            ("sp round", _events(Event("round_started", None, {"round": 2, "wild": 1, "start_seat": 2}))),
            ("sp end", _events(Event("end_bonus", 3, {"points": 34}))),
        ]

    # --- small words ------------------------------------------------------------------------------------------
    def color_name(self, token: Any, locale: str | None) -> str:
        index = color_index(token)
        return word(f"bot.sp.color.{COLORS[index]}", locale) if index is not None else str(token)

    def error_params(self, params: Mapping[str, Any], locale: str | None) -> dict[str, Any]:
        said = dict(params)
        if isinstance(said.get("color"), str) and said["color"] in COLORS:
            said["color"] = self.color_name(said["color"], locale)
        return said

    def tiles_text(self, counts: Sequence[int], locale: str | None) -> str:
        parts = [f"{n}× {self.color_name(c, locale)}" for c, n in enumerate(counts) if n]
        return ", ".join(parts) if parts else t("bot.sp.nothing", locale)

    def source_name(self, token: str, locale: str | None) -> str:
        if token == "centre":
            return t("bot.sp.centre", locale)
        return t("bot.sp.factory", locale, number=token)

    # --- token labels -----------------------------------------------------------------------------------------
    def label(
        self, state: SPState, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        text = self._label(state, seat, option, token, chosen=chosen, locale=locale)
        return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"

    def _label(
        self, state: SPState, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        try:
            if option == "source":
                return self._source_label(state, token, locale)
            if option == "color":
                return self._color_label(state, token, chosen, locale)
            if option == "star":
                return self._star_label(state, seat, token, locale)
            if option == "space":
                return self._space_label(state, seat, token, chosen, locale)
            if option == "wilds":
                return self._wilds_label(state, seat, token, chosen, locale)
            if option == "tiles":
                counts = multiset(token)
                return self.tiles_text(counts, locale) if counts else token
            if option == "keep":
                return self._keep_label(state, seat, token, locale)
        except (KeyError, IndexError, ValueError):
            return token
        return super().label(state, seat, option, token, chosen=chosen, locale=locale)

    def _source_tiles(self, state: SPState, token: str) -> list[int] | None:
        if token == "centre":
            return list(state.centre)
        if token.isdecimal() and 1 <= int(token) <= len(state.factories):
            return list(state.factories[int(token) - 1])
        return None

    def _source_label(self, state: SPState, token: str, locale: str | None) -> str:
        tiles = self._source_tiles(state, token)
        text = self.source_name(token, locale)
        if tiles is not None:
            text += " — " + self.tiles_text(tiles, locale)
        if token == "centre" and state.start_tile < 0:
            text += " " + t("bot.sp.with_start_tile", locale)
        return text

    def _color_label(self, state: SPState, token: str, chosen: Mapping[str, str], locale: str | None) -> str:
        index = color_index(token)
        tiles = self._source_tiles(state, chosen.get("source", ""))
        if index is None or tiles is None:
            return self.color_name(token, locale)
        wild = state.wild
        if index == wild:
            return t("bot.sp.take_one_wild", locale, color=self.color_name(index, locale))
        text = f"{tiles[index]}× {self.color_name(index, locale)}"
        if tiles[wild]:
            text += " " + t("bot.sp.plus_wild", locale, color=self.color_name(wild, locale))
        return text

    def _star_index(self, state: SPState, token: str) -> int:
        if token == "centre":
            return CENTRE
        if token.isdecimal():
            return int(token) - 1
        return FRONT_STAR_COLORS.index(COLORS.index(token))

    def _is_mono(self, state: SPState) -> bool:
        return bool(state.variant.endswith("mono"))

    def _star_label(self, state: SPState, seat: int, token: str, locale: str | None) -> str:
        mono = self._is_mono(state)
        star = self._star_index(state, token)
        text = self.star_token_name(token, locale)
        placed = [c for c in state.boards[seat].stars[star] if c >= 0]
        if mono or star == CENTRE:
            if not placed:
                text += " — " + t("bot.sp.star.empty", locale)
            elif len(placed) >= 2 and len(set(placed)) == 1:
                text += " — " + self.color_name(placed[0], locale)
            elif len(set(placed)) > 1:
                text += " — " + t("bot.sp.star.multicolor", locale)
        text += " " + t("bot.sp.star.covered", locale, count=len(placed))
        return text

    def _space_label(self, state: SPState, seat: int, token: str, chosen: Mapping[str, str], locale: str | None) -> str:
        mono = self._is_mono(state)
        star = self._star_index(state, chosen["star"])
        space = int(token[0]) - 1
        color = color_index(token[1:]) if len(token) > 1 else FRONT_STAR_COLORS[star]
        board = state.boards[seat]
        cost = space_cost(mono, star, space)
        after = [row[:] for row in board.stars]
        after[star][space] = color if color is not None else 0
        points = arc_points(after[star], space)
        bonus = sum(st.bonus for st in STRUCTURES_AT[(star, space)] if all(after[s][i] >= 0 for s, i in st.spaces))
        text = t("bot.sp.space", locale, number=space + 1, cost=cost, count=points)
        if len(token) > 1:
            text = f"{self.color_name(color, locale)} · {text}"
        if bonus:
            text += " · " + t("bot.sp.space_bonus", locale, count=bonus)
        return text

    def _wilds_label(self, state: SPState, seat: int, token: str, chosen: Mapping[str, str], locale: str | None) -> str:
        mono = self._is_mono(state)
        star = self._star_index(state, chosen["star"])
        space_token = chosen["space"]
        space = int(space_token[0]) - 1
        color = color_index(space_token[1:]) if len(space_token) > 1 else FRONT_STAR_COLORS[star]
        if color is None:
            return token
        wilds = int(token)
        cost = space_cost(mono, star, space)
        spent = [0] * NCOLORS
        spent[color] += cost - wilds
        spent[state.wild] += wilds
        return t("bot.sp.wilds", locale, count=wilds, pay=self.tiles_text(spent, locale))

    def _keep_label(self, state: SPState, seat: int, token: str, locale: str | None) -> str:
        keep = multiset(token)
        if keep is None:
            return token
        hand = state.boards[seat].hand
        discarded = sum(hand) - sum(keep)
        tiles = self.tiles_text(keep, locale) if any(keep) else t("bot.sp.nothing", locale)
        if not discarded:
            return t("bot.sp.keep", locale, tiles=tiles)
        cost = self.cost(state, seat, "pass", {"keep": token})
        # the cost first: Discord cuts a label at 100 characters, and a long hand would cut it off
        return t("bot.sp.keep_costing", locale, points=cost, count=discarded, tiles=tiles)

    # --- events -------------------------------------------------------------------------------------------------
    def describe(self, events: Sequence[Event], names: Sequence[str], locale: str | None) -> str:
        phrases: list[str] = []
        for event in events:
            data = event.data
            player = names[event.seat] if event.seat is not None and event.seat < len(names) else "?"
            kind = event.kind
            if kind == "take":
                source = str(data.get("source", ""))
                where = (
                    t("bot.sp.from_centre", locale)
                    if source == "centre"
                    else t("bot.sp.from_factory", locale, number=int(source) + 1)
                )
                text = t(
                    "bot.event.sp.take",
                    locale,
                    player=player,
                    count=data.get("count", 0),
                    color=self.color_name(data.get("color"), locale),
                    source=where,
                )
                if data.get("wild"):
                    text += " " + t("bot.sp.and_one_wild", locale)
                phrases.append(text)
            elif kind == "start_tile":
                phrases.append(t("bot.event.sp.start_tile", locale, player=player, penalty=data.get("penalty", 0)))
            elif kind == "place":
                phrases.append(self._place(data, player, locale))
            elif kind == "bonus_earned":
                phrases.append(t("bot.event.sp.bonus_earned", locale, player=player, count=data.get("count", 0)))
            elif kind == "bonus_taken":
                tiles = self.tiles_text(data.get("tiles", []), locale)
                phrases.append(t("bot.event.sp.bonus_taken", locale, player=player, tiles=tiles))
            elif kind == "pass":
                phrases.append(self._pass(data, player, locale))
            elif kind == "round_started" and int(data.get("round", 1)) > 1:
                start = int(data.get("start_seat", 0))
                phrases.append(
                    t(
                        "bot.event.sp.round_started",
                        locale,
                        round=data.get("round"),
                        wild=self.color_name(data.get("wild"), locale),
                        player=names[start] if start < len(names) else "?",
                    )
                )
            elif kind == "end_bonus" and data.get("points"):
                phrases.append(t("bot.event.sp.end_bonus", locale, player=player, points=data.get("points")))
        return " · ".join(phrases)

    def star_token_name(self, token: str, locale: str | None) -> str:
        if token == "centre":
            return t("bot.sp.star.centre", locale)
        if token.isdecimal():
            return t("bot.sp.star.number", locale, number=token)
        return t("bot.sp.star.color", locale, color=self.color_name(token, locale))

    def confirm_params(
        self, state: SPState, seat: int, command: str, chosen: Mapping[str, str], locale: str | None
    ) -> dict[str, Any] | None:
        try:
            if command == "take":
                return self._confirm_take(state, seat, chosen, locale)
            if command == "place":
                return self._confirm_place(state, seat, chosen, locale)
            if command in ("bonus", "pass"):
                counts = multiset(chosen.get("tiles" if command == "bonus" else "keep", ""))
                if counts is None:
                    return None
                if command == "bonus":
                    return {"tiles": self.tiles_text(counts, locale)}
                kept = t("bot.sp.keeping", locale, tiles=self.tiles_text(counts, locale)) if any(counts) else ""
                dropped = sum(state.boards[seat].hand) - sum(counts)
                cost = self.cost(state, seat, command, chosen)  # the score never goes below 1
                discarding = t("bot.sp.discarding", locale, count=dropped, penalty=cost) if dropped else ""
                return {"keeping": kept, "discarding": discarding}
        except (KeyError, IndexError, ValueError):
            return None
        return None

    def cost_of(self, state: SPState, seat: int, events: Sequence[Event]) -> int:
        """The first-player marker's and the discards' penalties, as the engine charged them (never below 1)."""
        return sum(
            points_of(event.data.get("penalty"))
            for event in events
            if event.seat == seat and event.kind in ("start_tile", "pass")
        )

    def _confirm_take(
        self, state: SPState, seat: int, chosen: Mapping[str, str], locale: str | None
    ) -> dict[str, Any] | None:
        tiles = self._source_tiles(state, chosen.get("source", ""))
        index = color_index(chosen.get("color", ""))
        if tiles is None or index is None:
            return None
        wild = state.wild
        count = 1 if index == wild else tiles[index]
        plus = (
            " " + t("bot.sp.plus_wild", locale, color=self.color_name(wild, locale))
            if index != wild and tiles[wild]
            else ""
        )
        source = chosen["source"]
        where = (
            t("bot.sp.from_centre", locale) if source == "centre" else t("bot.sp.from_factory", locale, number=source)
        )
        first = source == "centre" and state.start_tile < 0
        marker = t("bot.confirm.summer-pavilion.start_tile", locale) if first else ""
        cost = self.cost_clause(self.cost(state, seat, "take", chosen), locale)
        return {"count": count, "color": self.color_name(index, locale), "source": where + plus + marker + cost}

    def _confirm_place(
        self, state: SPState, seat: int, chosen: Mapping[str, str], locale: str | None
    ) -> dict[str, Any]:
        star = self._star_index(state, chosen["star"])
        space_token = chosen["space"]
        space = int(space_token[0]) - 1
        color = color_index(space_token[1:]) if len(space_token) > 1 else FRONT_STAR_COLORS[star]
        if color is None:
            raise ValueError(space_token)
        wilds = int(chosen.get("wilds", "0") or 0)
        spent = [0] * NCOLORS
        spent[color] += space_cost(self._is_mono(state), star, space) - wilds
        spent[state.wild] += wilds
        return {
            "color": self.color_name(color, locale),
            "space": space + 1,
            "star": self._of_star(chosen["star"], locale),
            "pay": self.tiles_text(spent, locale),
        }

    def _of_star(self, token: str, locale: str | None) -> str:
        """Where a tile went, as a phrase of place ("star 3", "the blue star"; Polish and Ukrainian in the genitive)."""
        if token == "centre":
            return t("bot.sp.of_star.centre", locale)
        if token.isdecimal():
            return t("bot.sp.of_star.number", locale, number=token)
        return t("bot.sp.of_star.color", locale, color=self.color_name(token, locale))

    def _place(self, data: Mapping[str, Any], player: str, locale: str | None) -> str:
        color = int(data.get("color", 0))
        where = self._of_star(str(data.get("star_token", "")), locale)
        text = t(
            "bot.event.sp.place",
            locale,
            player=player,
            color=self.color_name(color, locale),
            star=where,
            space=int(data.get("space", 0)) + 1,
            points=data.get("points", 0),
        )
        if data.get("wilds"):
            text += " " + t("bot.sp.with_wilds", locale, count=data["wilds"])
        return text

    def _pass(self, data: Mapping[str, Any], player: str, locale: str | None) -> str:
        kept = data.get("kept") or []
        penalty = int(data.get("penalty", 0))
        key = "bot.event.sp.pass_auto" if data.get("auto") else "bot.event.sp.pass"
        text = t(key, locale, player=player)
        if any(kept):  # the clauses carry their own leading punctuation: ", keeping ..."
            text += t("bot.sp.keeping", locale, tiles=self.tiles_text(kept, locale))
        discarded = sum(data.get("discarded") or [])
        if discarded:
            text += t("bot.sp.discarding", locale, count=discarded, penalty=penalty)
        return text


ADAPTER = SummerPavilionAdapter()

"""Azul: Queen's Garden in words: hexagons, payments, garden cells and the display as players say them.

Every label keeps the engine's token in it (``bl3``, ``A2-4``, ``ye3+1j``) so typing the token in a slash
command's autocomplete filters the list, and the picture's cell names match what people type.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import engine
from bot.games.base import GameAdapter, points_of
from bot.games.base import sample_events as _events
from data.i18n import Word, agree, has, normalize, t, word
from engine import Event
from engine.queens_garden import CELLS, NONE, SUPPLY, QGState, QueensGarden, color_of, pattern_of

GAME = "queens-garden"


def _variant(name: str = GAME) -> QueensGarden:
    variant = engine.get_variant(name)
    if not isinstance(variant, QueensGarden):
        raise TypeError(f"{name} is not a Queen's Garden variant")
    return variant


class QueensGardenAdapter(GameAdapter[QGState]):
    game = GAME
    short_name = "qg"

    def phrase_params(self) -> Mapping[str, Any]:
        def hexagon(key: str, lang: str) -> Word:
            return self.hexagon_word("lp6", lang)

        return {"color": lambda key, lang: word("bot.qg.color.dark_purple", lang), "hexagon": hexagon, "what": hexagon}

    def phrase_tables(self) -> list[tuple[str, str, list[tuple[str, Callable[[str], str]]]]]:
        def forms(kind: str) -> Callable[[str], str]:
            def said(lang: str) -> str:
                found = self.hexagon_word(kind, lang)
                return " · ".join(dict.fromkeys(found.form(case) for case in ("nom", "acc", "gen", "ins")))

            return said

        kinds = ("bl1", "ye2", "lg3", "dg4", "lp5", "dp6", "xbl2", "xdp5")
        title = "Queen's Garden hexagons (nominative · accusative · genitive · instrumental)"
        return [(title, "token", [(f"`{kind}`", forms(kind)) for kind in kinds])]

    score_parts = ("start", "rounds", "gardens", "storage", "costs")

    def count_points(self, parts: dict[str, list[int]], event: Event) -> None:
        seat, data = event.seat, event.data
        if event.kind == "round_scored":
            for index, scored in enumerate(data.get("breakdown") or []):
                parts["rounds"][index] += points_of(scored.get("total"))
        elif event.kind == "final_scored" and seat is not None:
            parts["storage"][seat] += points_of(data.get("storage"))
            parts["gardens"][seat] += sum(points_of(group.get("points")) for group in data.get("groups") or [])

    def settle_points(self, parts: dict[str, list[int]], final: Sequence[int]) -> None:
        # Its events give a penalty before the score's floor of 0 cuts it: what penalties and bought expansions
        # really took is what the other categories leave unexplained.
        for seat, score in enumerate(final):
            parts["costs"][seat] = score - sum(points[seat] for name, points in parts.items() if name != "costs")

    def phrase_samples(self) -> list[tuple[str, list[Event]]]:
        return [
            (
                "qg acquire",
                _events(
                    Event(
                        "acquire",
                        0,
                        {"taken": [{"kind": "bl6", "expansion": False}, {"kind": "ye2", "expansion": True}]},
                    )
                ),
            ),
            ("qg tile", _events(Event("tile_placed", 1, {"tile": "dg5", "cell": "A2-4"}))),
            ("qg tile 2", _events(Event("tile_placed", 1, {"tile": "lp3", "cell": "F1"}))),
            ("qg expansion", _events(Event("expansion_placed", 0, {"expansion": "dp1", "area": "A3"}))),
            ("qg expansion face down", _events(Event("expansion_placed", 0, {"expansion": None, "area": "A2"}))),
            ("qg joker", _events(Event("joker_earned", 0, {"ornament": "S2", "count": 1, "lost": 0}))),
            ("qg jokers lost", _events(Event("joker_earned", 0, {"ornament": "P1", "count": 2, "lost": 1}))),
            ("qg fountain", _events(Event("joker_earned", 0, {"ornament": "F", "count": 5, "lost": 0}))),
            ("qg pass", _events(Event("pass", 2, {"discarded": "bl3+2ye3", "penalty": 9, "marker": True}))),
            ("qg pass nothing", _events(Event("pass", 3, {"discarded": "-", "penalty": 0, "marker": False}))),
            (
                "qg round",
                _events(
                    Event("round_scored", None, {"round": 1, "breakdown": [{"total": 5}, {"total": 0}]}),
                    Event("round_started", None, {"round": 2, "start_seat": 1}),
                ),
            ),
            (
                "qg final",
                _events(Event("final_scored", 0, {"storage": -18, "groups": [{"points": 12}, {"points": 9}]})),
            ),
            ("qg final 1 group", _events(Event("final_scored", 1, {"storage": 0, "groups": [{"points": 5}]}))),
        ]

    # --- words for the pieces -----------------------------------------------------------------------------------
    def color_name(self, index: int, locale: str | None) -> str:
        return word(f"bot.qg.color.{_variant().components.colors[index]}", locale)

    def pattern_name(self, value: int, locale: str | None) -> str:
        return word(f"bot.qg.pattern.{value}", locale)

    def hexagon(self, token: str, locale: str | None) -> str:
        """``bl3`` → "blue butterfly (3)"; ``xbl3`` → "expansion with blue butterfly (3)"."""
        return self.hexagon_word(token, locale)

    def hexagon_word(self, token: str, locale: str | None) -> Word:
        """A hexagon's name with every case form, its colour agreeing with its pattern ("niebieska lilia")."""
        return _hexagon_word(token, normalize(locale))

    def bag(self, token: str, locale: str | None) -> str:
        """A multiset token (payment, discard) in words."""
        if token == NONE:
            return t("bot.qg.nothing", locale)
        items, jokers = _variant().notation.parse_bag(token)
        notation = _variant().notation
        parts = [
            (f"{count}× " if count > 1 else "") + self.hexagon(notation.item(item), locale)
            for item, count in sorted(items.items())
        ]
        if jokers:
            parts.append(t("bot.qg.jokers", locale, count=jokers))
        return ", ".join(parts)

    def cell_word(self, token: str, locale: str | None) -> Word | str:
        """A garden cell in words, with its cases: ``F1`` the fountain's cell 1, ``A2-4`` cell 4 of area A2 (areas
        are named so on the picture), ``A2-0`` the middle of A2; anything else as given."""
        if token not in CELLS:
            return token
        if token.startswith("F"):
            return _filled(word("bot.qg.cell_fountain", locale), number=token[1:])
        area, _, place = token.partition("-")
        if place == "0":
            return _filled(word("bot.qg.cell_middle", locale), area=area)
        return _filled(word("bot.qg.cell_area", locale), area=area, number=place)

    def error_params(self, params: Mapping[str, Any], locale: str | None) -> dict[str, Any]:
        """Hexagons and cells in words (``lp3`` a light purple butterfly (3), ``F1`` the fountain's cell 1)."""
        said = dict(params)
        hexagon = said.get("hexagon")
        if isinstance(hexagon, str):
            with contextlib.suppress(engine.EngineError, KeyError, IndexError, ValueError):  # not a hexagon: as given
                said["hexagon"] = self.hexagon_word(hexagon, locale)
        if isinstance(said.get("cell"), str):
            said["cell"] = self.cell_word(said["cell"], locale)
        return said

    def location(self, token: str, locale: str | None) -> str:
        return t("bot.qg.stack_top", locale) if token == "s" else t("bot.qg.display_item", locale, number=token[1:])

    # --- the expansion's picture ----------------------------------------------------------------------------------
    def preview_candidate(
        self, variant: engine.Variant[Any], command: str, choices: Mapping[str, str]
    ) -> tuple[str, engine.Move]:
        """An area chosen before its rotation is drawn with no rotation (marked in the area's middle: ``A2``); a
        rotation under the outer cell it turns to (``A2-4``)."""
        full = {"rotation": NONE, **choices}
        rotation = full["rotation"]
        mark = full["area"] if rotation in ("", NONE) else f"{full['area']}-{rotation}"
        return mark, variant.move_from_choices(command, full)

    # --- token labels -------------------------------------------------------------------------------------------
    def label(
        self, state: QGState, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str:
        try:
            text = self._label(state, seat, option, token, chosen=chosen, locale=locale)
        except engine.EngineError:
            text = None
        return text if text is not None else super().label(state, seat, option, token, chosen=chosen, locale=locale)

    def _label(
        self, state: QGState, seat: int, option: str, token: str, *, chosen: Mapping[str, str], locale: str | None
    ) -> str | None:
        if option == "by":
            return self._by_label(state, token, locale)
        if option == "which":
            if token == NONE:
                return t("bot.qg.no_choice", locale)
            picks = [part.partition("@") for part in token.split("+")]
            words = "; ".join(self._pick(kind, loc, locale) for kind, _, loc in picks)
            return _with_token(token, words)
        if option in ("tile", "expansion"):
            if token == SUPPLY:
                # in words only: the token is English, and the words are what players of every language match
                cost = _variant(state.variant).components.supply_expansion_cost
                return t("bot.qg.from_supply", locale, points=cost)
            return _with_token(token, self.hexagon(token, locale))
        if option == "payment":
            return _with_token(token, self.bag(token, locale))
        if option == "discard":
            # the cost first, the engine's own (the first pass's penalty too): Discord cuts a label at 100 characters
            points = self.cost(state, seat, "pass", {"discard": token})
            if token == NONE:
                key = "bot.qg.keep_all_costing" if points else "bot.qg.keep_all"
                return t(key, locale, points=points)
            return _with_token(token, t("bot.qg.discard", locale, what=self.bag(token, locale), points=points))
        if option == "cell":
            return t("bot.qg.cell", locale, cell=token)
        if option == "area":
            return t("bot.qg.area", locale, area=token)
        if option == "rotation":
            if token == NONE:
                return t("bot.qg.face_down", locale)
            area = chosen.get("area", "").upper()
            cell = f"{area}-{token}" if area else token
            return t("bot.qg.rotation", locale, cell=cell)
        return None

    def confirm_params(
        self, state: QGState, seat: int, command: str, chosen: Mapping[str, str], locale: str | None
    ) -> dict[str, Any] | None:
        """Every move as a sentence of its own, in words without the codes people type, ending with what it costs."""
        try:
            if command == "acquire":
                return self._confirm_acquire(state, chosen, locale)
            paying = self._paying(chosen.get("payment", NONE), locale)
            if command == "tile":
                cell = self.cell_word(chosen["cell"], locale)
                return {"tile": self.hexagon_word(chosen["tile"], locale), "cell": cell, "paying": paying}
            cost = self.cost_clause(self.cost(state, seat, command, chosen), locale)
            if command == "expansion":
                return self._confirm_expansion(state, chosen, paying + cost, locale)
            if command == "pass":
                marker = t("bot.confirm.queens-garden.marker", locale) if state.marker < 0 else ""
                discarding = self._discarding(chosen.get("discard", NONE), locale)
                return {"discarding": discarding + marker + cost}
        except (engine.EngineError, KeyError, ValueError):
            return None
        return None

    def cost_of(self, state: QGState, seat: int, events: Sequence[Event]) -> int:
        """What a pass (discards and the first pass's penalty, the score never under 0) or a face-down expansion
        bought from the supply took off the score, as the engine charged it."""
        cost = 0
        for event in events:
            if event.seat != seat:
                continue
            if event.kind == "pass":
                cost += state.players[seat].score - int(event.data["score"])
            elif event.kind == "expansion_placed":
                cost += points_of(event.data.get("points"))
        return cost

    def _paying(self, payment: str, locale: str | None) -> str:
        return "" if payment == NONE else t("bot.confirm.paying", locale, what=self.bag(payment, locale))

    def _confirm_acquire(self, state: QGState, chosen: Mapping[str, str], locale: str | None) -> dict[str, Any]:
        """ "Take everything blue in the display (2 tiles, 1 expansion)?", with which of identical hexagons."""
        variant = _variant(state.variant)
        by = chosen["by"]
        codes = variant.components.color_codes
        sources = variant.sources(state, by)
        expansions = sum(1 for places in sources.values() if next(iter(places.values())).expansion)
        counts = [t("bot.qg.tiles", locale, count=len(sources) - expansions)] if len(sources) > expansions else []
        counts += [t("bot.qg.expansions", locale, count=expansions)] if expansions else []
        which = chosen.get("which", NONE)
        picks = ""
        if which not in ("", NONE):
            parts = [part.partition("@") for part in which.split("+")]
            chosen_picks = ", ".join(self._pick(kind, place, locale) for kind, _, place in parts)
            picks = t("bot.confirm.queens-garden.picks", locale, picks=chosen_picks)
        if by in codes:
            what = t("bot.qg.everything_color", locale, name=self.color_name(codes.index(by), locale))
        else:
            what = t("bot.qg.everything_pattern", locale, name=self.pattern_name(int(by), locale))
        return {"what": what, "counts": ", ".join(counts), "picks": picks}

    def _confirm_expansion(
        self, state: QGState, chosen: Mapping[str, str], paying: str, locale: str | None
    ) -> dict[str, Any]:
        token = chosen["expansion"]
        if token == SUPPLY:
            what = t("bot.confirm.queens-garden.face_down", locale)
        else:
            what = t("bot.qg.face_up_expansion", locale, hexagon=self.hexagon_word(token, locale))
        rotation = chosen.get("rotation", NONE)
        printed = ""
        if rotation not in ("", NONE):
            cell = self.cell_word(f"{chosen['area'].upper()}-{rotation}", locale)
            printed = t("bot.confirm.queens-garden.printed", locale, cell=cell)
        return {"what": what, "area": chosen["area"], "printed": printed, "paying": paying}

    def _discarding(self, token: str, locale: str | None) -> str:
        if token == NONE:
            return t("bot.confirm.queens-garden.keeping_all", locale)
        return t("bot.confirm.queens-garden.discarding", locale, what=self.bag(token, locale))

    def _pick(self, kind: str, location: str, locale: str | None) -> str:
        """One of identical hexagons and where it lies ("blue lily (6) from display d2")."""
        hexagon = self.hexagon(kind, locale)
        if location == "s":
            return t("bot.qg.pick_top", locale, hexagon=hexagon)
        return t("bot.qg.pick_display", locale, hexagon=hexagon, number=location[1:])

    def _by_label(self, state: QGState, token: str, locale: str | None) -> str:
        variant = _variant(state.variant)
        codes = variant.components.color_codes
        name = self.color_name(codes.index(token), locale) if token in codes else self.pattern_name(int(token), locale)
        sources = variant.sources(state, token)
        expansions = sum(1 for places in sources.values() if next(iter(places.values())).expansion)
        tiles = len(sources) - expansions
        counts = [t("bot.qg.tiles", locale, count=tiles)] if tiles else []
        counts += [t("bot.qg.expansions", locale, count=expansions)] if expansions else []
        words = t("bot.qg.by", locale, name=name, counts=", ".join(counts))
        return _with_token(token, words)

    # --- rules ----------------------------------------------------------------------------------------------------
    def rules(self, variant: str, locale: str | None) -> str:
        """The rules summary; for the variant side, which values it is played with (its rulebook prints none)."""
        note = f"bot.lobby.note.{variant}"
        return t(f"bot.rules.{variant}", locale) + ("\n" + t(note, locale) if has(note, locale) else "")

    # --- events ---------------------------------------------------------------------------------------------------
    def event_params(self, event: Event, names: Sequence[str], locale: str | None) -> dict[str, Any]:
        params = super().event_params(event, names, locale)
        data = event.data
        if event.kind == "acquire":
            taken = [("x" if item["expansion"] else "") + str(item["kind"]) for item in data["taken"]]
            params["what"] = ", ".join(self.hexagon(token, locale) for token in taken)
        elif event.kind == "tile_placed":
            params["hexagon"] = self.hexagon_word(str(data["tile"]), locale)
            params["cell"] = self.cell_word(str(data["cell"]), locale)
        elif event.kind == "expansion_placed":
            expansion = data.get("expansion")
            params["what"] = (
                t("bot.qg.face_down_expansion", locale, points=data.get("points", 6))
                if expansion is None
                else t("bot.qg.face_up_expansion", locale, hexagon=self.hexagon_word(str(expansion), locale))
            )
        elif event.kind == "pass":
            discarded = str(data["discarded"])
            # The event's penalty is the whole loss: the discarded hexagons plus the first pass's; each said once.
            marker = _variant().components.first_pass_penalty if data["marker"] else 0
            discard = int(data.get("penalty", 0)) - marker
            params["what"] = (
                ""
                if discarded == NONE
                else t("bot.qg.discarded", locale, what=self.bag(discarded, locale), penalty=discard)
            )
            params["marker_text"] = t("bot.qg.took_marker", locale, points=marker) if data["marker"] else ""
        elif event.kind == "joker_earned":
            params["ornament_name"] = t(f"bot.qg.ornament.{str(data['ornament'])[0]}", locale, name=data["ornament"])
            params["lost_text"] = t("bot.qg.jokers_lost", locale, count=data["lost"]) if data["lost"] else ""
        elif event.kind == "round_scored":
            params["scores"] = ", ".join(
                f"{names[seat] if seat < len(names) else seat} +{part['total']}"
                for seat, part in enumerate(data["breakdown"])
            )
        elif event.kind == "round_started":
            start = int(data["start_seat"])
            params["player"] = names[start] if start < len(names) else str(start + 1)
        elif event.kind == "final_scored":
            groups = data.get("groups", [])
            params["storage"] = f"{int(data.get('storage', 0)):d}".replace("-", "−")
            params["groups"] = sum(int(group["points"]) for group in groups)
            params["count"] = len(groups)
        return params

    def describe(self, events: Sequence[Event], names: Sequence[str], locale: str | None) -> str:
        text = super().describe(events, names, locale)
        return " ".join(text.split())  # optional parts of a phrase may be empty


@cache
def _hexagon_word(token: str, locale: str) -> Word:
    """Names depend only on the token and the language; pickers name hundreds of the same few, so they are kept."""
    expansion = token.startswith("x")
    kind = _variant().notation.parse_kind(token[1:] if expansion else token)
    pattern = word(f"bot.qg.pattern.{pattern_of(kind)}", locale)
    color = word(f"bot.qg.color.{_variant().components.colors[color_of(kind)]}", locale)
    name = agree("bot.qg.hexagon", locale, pattern, color=color, pattern=pattern, value=pattern_of(kind))
    if not expansion:
        return name
    noun = word("bot.qg.expansion_noun", locale)
    return agree("bot.qg.expansion_item", locale, noun, expansion=noun, hexagon=name)


def _filled(template: Word, **params: Any) -> Word:
    """A word whose every form holds the same placeholders (``pole {number} obszaru {area}``), filled in."""
    return Word({case: form.format(**params) for case, form in template.forms.items()}, template.gender)


def _with_token(token: str, words: str) -> str:
    """The token first (what people type, and never cut off), then its words within Discord's 100 characters."""
    text = f"{token} — {words}"
    return text if len(text) <= 100 else text[:99] + "…"


def _side(variant: str) -> str:
    return "variant" if variant.endswith("-variant") else "standard"


ADAPTER = QueensGardenAdapter()

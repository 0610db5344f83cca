"""``python -m bench render --phone``: how the picture posted after a turn reads on a 390 x 844 phone, for every
variant with 2, 3 and 4 players, midway through a seeded game and at its end.

Each row is the posted picture (:func:`render.render_post`, with its caption) of the seat the bot shows in full,
drawn in English, Polish and Ukrainian with Polish, Ukrainian, long and emoji names and the notes the bot adds (a
computer seat, an absent player, the clock of whoever must move; only the computer's at the end), and gives its
largest size over the three languages, the scale a phone shows it at and its smallest digit, capital letter and
name in the phone's pixels (the smallest over the languages), measured from the faces the renderer drew each text
with (:mod:`render.phone`). Targets: digits >= 10 px, letters >= 8 px, names >= 12 px.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import engine
from render import render_post
from render.common import SeatInfo
from render.phone import MIN_DIGIT, MIN_LETTER, MIN_NAME, Reading, read

NAMES = ("Zoë 💙 Żak", "Олександра Коваленко-Шевченко", "Bartłomiej Grzegorzewski-Wąsowicz", "Kuba")
NOTES = {
    "en": ("hard", "away until 3 Dec", "5 h left", "5 h"),
    "pl": ("trudny", "nieobecność do 3.12", "zostało 5 godz.", "5 godz."),
    "uk": ("складний", "відсутність до 3.12", "лишилося 5 год", "5 год"),
}
LOCALES = ("en", "pl", "uk")
MOMENTS = (("mid", 0.5), ("final", 1.0))
CAPTION = "Zoë 💙 Żak takes 3 tiles"


@dataclass(frozen=True)
class Row:
    variant: str
    players: int
    moment: str
    reading: Reading  # the smallest over the languages, at the largest size


def seat_notes(state: Any, locale: str) -> list[SeatInfo | None]:
    """The notes the bot draws: seat 1 a computer, seat 2 away (while the game goes on), and the clock of the first
    person who must move."""
    players = len(engine.scores(state))
    robot, away, clock, clock_short = NOTES[locale]
    info: list[SeatInfo | None] = [None] * players
    info[1] = SeatInfo(robot=robot, robot_short="3")
    if engine.is_over(state):
        return info
    if players > 2:
        info[2] = SeatInfo(away=away, away_short="3.12")
    people = sorted(engine.to_act(state) - {1})
    if people:
        info[people[0]] = SeatInfo(clock=clock, clock_short=clock_short)
    return info


def moments(variant: str, players: int) -> Iterator[tuple[str, Any, Sequence[engine.Event]]]:
    from bench.render import moment

    for label, share in MOMENTS:
        state, events = moment(variant, players, share)
        yield label, state, events


def rows() -> Iterator[Row]:
    for variant in engine.variant_names():
        for players in (2, 3, 4):
            for label, state, events in moments(variant, players):
                readings = []
                for locale in LOCALES:
                    draw = partial(
                        render_post,
                        state,
                        names=NAMES[:players],
                        events=events,
                        locale=locale,
                        info=seat_notes(state, locale),
                        caption=CAPTION,
                    )
                    readings.append(read(draw)[1])
                yield Row(variant, players, label, worst(readings))


def worst(readings: Sequence[Reading]) -> Reading:
    tallest = max(readings, key=lambda r: r.size[1])
    return Reading(
        tallest.size,
        min(r.scale for r in readings),
        min(r.digit for r in readings),
        min(r.letter for r in readings),
        min(r.name for r in readings),
    )


def main() -> int:
    print(f"{'picture':<32} {'pixels':>9} {'scale':>6} {'digit':>6} {'letter':>7} {'name':>6}  smallest texts")
    failed = 0
    for row in rows():
        r = row.reading
        ok = r.meets()
        failed += not ok
        name = f"{row.variant}-{row.players}p-{row.moment}"
        texts = f"{r.digit[1]!r}, {r.letter[1]!r}, {r.name[1]!r}"
        print(
            f"{name:<32} {r.size[0]:>4}x{r.size[1]:<4} {r.scale:>5.2f}x {r.digit[0]:>5.1f} {r.letter[0]:>7.1f}"
            f" {r.name[0]:>6.1f}  {texts}{'' if ok else '  MISSES ' + '; '.join(r.misses())}",
            flush=True,
        )
    print(
        f"targets on a 390x844 screen: digits >= {MIN_DIGIT:g} px, letters >= {MIN_LETTER:g} px (capitals),"
        f" names >= {MIN_NAME:g} px; {failed} picture(s) miss them"
    )
    return 1 if failed else 0

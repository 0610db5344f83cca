"""The standings picture of a league, drawn like the leaderboard (:mod:`render.stats`): rank, name, league points
(big), Buchholz (Swiss only), total game score and games played. Readable at 400 px: few columns, big numbers.

A pure function of plain data; the bot draws it in a worker. Texts are ``picture.league.*`` in the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from data.i18n import t
from render import _drawing
from render.common import HIGHLIGHT, MUTED, TEXT, canvas, panel
from render.emoji import draw as draw_text
from render.inputs import LeagueStanding
from render.names import fit_name
from render.png import to_png
from render.stats import MARGIN, ROW, WIDTH, _header
from render.text import font

__all__ = ["LeagueStanding", "standings_png"]


def standings_png(title: str, subtitle: str, rows: Sequence[LeagueStanding], swiss: bool, locale: str) -> bytes:
    height = MARGIN + 80 + 36 + ROW * max(1, len(rows)) + MARGIN
    with _drawing:
        image, d = canvas(WIDTH, height)
        top = _header(d, title, subtitle)
        small, cell, bold = font(19), font(22), font(26, bold=True)
        columns = {"rank": MARGIN + 40, "name": MARGIN + 70, "points": 470, "buchholz": 570, "score": 670, "games": 760}
        heads = ["points", "buchholz", "score", "games"] if swiss else ["points", "score", "games"]
        d.text((columns["name"], top), t("picture.stats.player", locale), font=small, fill=MUTED)
        for head in heads:
            d.text((columns[head], top), t(f"picture.league.{head}", locale), font=small, fill=MUTED, anchor="ra")
        y = top + 36
        if not rows:
            d.text((WIDTH // 2, y + ROW // 2), t("picture.league.empty", locale), font=cell, fill=MUTED, anchor="mm")
        for row in rows:
            if row.rank <= 3 and not row.out:
                panel(d, (MARGIN, y + 2, WIDTH - MARGIN, y + ROW - 2), radius=10)
            middle = y + ROW // 2
            colour = MUTED if row.out else TEXT
            d.text((columns["rank"], middle), str(row.rank), font=bold, fill=HIGHLIGHT, anchor="rm")
            name = fit_name(row.name, cell, columns["points"] - 90 - columns["name"], "?")
            draw_text(d, (columns["name"], middle), name, cell, colour, "lm")  # emoji in colour
            d.text((columns["points"], middle), row.points, font=bold, fill=colour, anchor="rm")
            if swiss:
                d.text((columns["buchholz"], middle), row.buchholz, font=cell, fill=MUTED, anchor="rm")
            d.text((columns["score"], middle), str(row.score), font=cell, fill=colour, anchor="rm")
            d.text((columns["games"], middle), str(row.games), font=cell, fill=colour, anchor="rm")
            y += ROW
        return to_png(image)

"""Pictures of players rather than tables: a leaderboard page and a profile card with its rating-history chart.

Pure functions of plain data (no store, no Discord) in the family's theme; the bot draws them in a worker thread.
Texts are ``picture.stats.*`` in the reader's language; numbers are already final (the caller rounds nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import ImageDraw

from data.i18n import t
from render import _drawing
from render.common import ACCENT, BG, HIGHLIGHT, MUTED, PANEL_EDGE, TEXT, canvas, panel
from render.emoji import draw as draw_text
from render.inputs import Standing
from render.names import fit_name
from render.png import to_png
from render.text import fit, font

__all__ = ["Standing", "leaderboard_png", "profile_png"]

WIDTH = 800
MARGIN = 24
ROW = 52
# One line colour per game of the family, in the order the chart's legend lists them.
LINE_COLOURS = ((76, 160, 255), (255, 200, 40), (76, 217, 123), (255, 110, 100), (200, 140, 255))


def _header(d: ImageDraw.ImageDraw, title: str, subtitle: str) -> int:
    """The title (a player's or a league's name, or a page's title: emoji drawn, shortened as a name) and the
    line under it; returns the bottom."""
    face = font(30, bold=True)
    draw_text(d, (MARGIN, MARGIN), fit_name(title, face, WIDTH - 2 * MARGIN, "?"), face, TEXT)
    d.text((MARGIN, MARGIN + 42), fit(subtitle, font(20), WIDTH - 2 * MARGIN), font=font(20), fill=MUTED)
    return MARGIN + 80


def leaderboard_png(title: str, subtitle: str, rows: Sequence[Standing], locale: str) -> bytes:
    """A page of a leaderboard: rank, name, rating (the conservative estimate, big) with mu ± sigma, games, wins."""
    height = MARGIN + 80 + 36 + ROW * max(1, len(rows)) + MARGIN
    with _drawing:
        image, d = canvas(WIDTH, height)
        top = _header(d, title, subtitle)
        small, cell, bold = font(17), font(22), font(24, bold=True)
        columns = {"rank": MARGIN + 40, "name": MARGIN + 70, "rating": 530, "games": 640, "wins": 740}
        d.text((columns["name"], top), t("picture.stats.player", locale), font=small, fill=MUTED)
        d.text((columns["rating"], top), t("picture.stats.rating", locale), font=small, fill=MUTED, anchor="ra")
        d.text((columns["games"], top), t("picture.stats.games", locale), font=small, fill=MUTED, anchor="ra")
        d.text((columns["wins"], top), t("picture.stats.wins", locale), font=small, fill=MUTED, anchor="ra")
        y = top + 36
        if not rows:
            d.text((WIDTH // 2, y + ROW // 2), t("picture.stats.empty", locale), font=cell, fill=MUTED, anchor="mm")
        for row in rows:
            if row.rank <= 3:
                panel(d, (MARGIN, y + 2, WIDTH - MARGIN, y + ROW - 2), radius=10)
            middle = y + ROW // 2
            d.text((columns["rank"], middle), str(row.rank), font=bold, fill=HIGHLIGHT, anchor="rm")
            name = fit_name(row.name, cell, columns["rating"] - 100 - 70 - columns["name"], "?")  # clear of the rating
            draw_text(d, (columns["name"], middle), name, cell, TEXT, "lm")  # emoji in colour
            d.text((columns["rating"] - 100, middle), f"{row.ordinal:.1f}", font=bold, fill=TEXT, anchor="rm")
            spread = f"{row.mu:.1f} ± {row.sigma:.1f}"
            d.text((columns["rating"], middle), spread, font=small, fill=MUTED, anchor="rm")
            d.text((columns["games"], middle), str(row.games), font=cell, fill=TEXT, anchor="rm")
            d.text((columns["wins"], middle), str(row.wins), font=cell, fill=TEXT, anchor="rm")
            y += ROW
        return to_png(image)


def profile_png(
    name: str,
    ratings: Sequence[tuple[str, Standing]],
    facts: Sequence[tuple[str, str]],
    history: Mapping[str, Sequence[tuple[float, float]]],
    locale: str,
) -> bytes:
    """A profile card: each game's rating (label, standing), a few facts (label, value) and a chart of the rating
    after every rated game (``history[label]`` = (mu, sigma) before the first game, then after each; the band is
    ± sigma)."""
    chart_h = 260 if any(len(points) for points in history.values()) else 0
    height = MARGIN + 80 + 58 * max(1, len(ratings)) + 34 * len(facts) + (chart_h + 40 if chart_h else 0) + MARGIN
    with _drawing:
        image, d = canvas(WIDTH, height)
        y = _header(d, name, t("picture.stats.profile", locale))
        big, cell, small = font(26, bold=True), font(22), font(18)
        if not ratings:
            d.text((MARGIN, y + 10), t("picture.stats.unrated", locale), font=cell, fill=MUTED)
            y += 58
        for index, (label, row) in enumerate(ratings):
            panel(d, (MARGIN, y, WIDTH - MARGIN, y + 50), radius=10)
            d.rectangle((MARGIN + 8, y + 14, MARGIN + 20, y + 36), fill=LINE_COLOURS[index % len(LINE_COLOURS)])
            d.text((MARGIN + 32, y + 25), fit(label, cell, 300), font=cell, fill=TEXT, anchor="lm")
            # The rating the leaderboard ranks by, big; its mean and uncertainty beside it, as on the leaderboard.
            d.text((430, y + 25), f"{row.ordinal:.1f}", font=big, fill=HIGHLIGHT, anchor="rm")
            d.text((440, y + 25), f"{row.mu:.1f} ± {row.sigma:.1f}", font=small, fill=MUTED, anchor="lm")
            counts = t("picture.stats.games_wins", locale, games=row.games, wins=row.wins)
            d.text((WIDTH - MARGIN - 12, y + 25), counts, font=small, fill=MUTED, anchor="rm")
            y += 58
        for label, value in facts:
            d.text((MARGIN, y + 26), label, font=small, fill=MUTED, anchor="ls")
            d.text((WIDTH - MARGIN, y + 26), fit(value, cell, 420), font=cell, fill=TEXT, anchor="rs")
            y += 34
        if chart_h:
            _chart(d, (MARGIN, y + 20, WIDTH - MARGIN, y + 20 + chart_h), list(history.values()), locale)
        return to_png(image)


def _chart(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], lines: Sequence[Sequence[tuple[float, float]]], locale: str
) -> None:
    """Rating after each rated game, one line per game of the family, with its ± sigma band."""
    left, top, right, bottom = box
    panel(d, box, fill=BG, outline=PANEL_EDGE, radius=10)
    values = [v for line in lines for mu, sigma in line for v in (mu - sigma, mu + sigma)]
    low, high = min(values), max(values)
    if high - low < 4:
        low, high = low - 2, high + 2
    plot = (left + 56, top + 16, right - 16, bottom - 34)
    longest = max(len(line) for line in lines)

    def at(k: int, value: float) -> tuple[float, float]:
        x = plot[0] + (plot[2] - plot[0]) * (k / max(1, longest - 1) if longest > 1 else 0.5)
        y = plot[3] - (plot[3] - plot[1]) * (value - low) / (high - low)
        return x, y

    small = font(16)
    for step in range(3):
        value = low + (high - low) * step / 2
        _, y = at(0, value)
        d.line((plot[0], y, plot[2], y), fill=PANEL_EDGE, width=1)
        d.text((plot[0] - 8, y), f"{value:.0f}", font=small, fill=MUTED, anchor="rm")
    axis = t("picture.stats.games_axis", locale)
    d.text(((plot[0] + plot[2]) / 2, bottom - 8), axis, font=small, fill=MUTED, anchor="md")
    for index, line in enumerate(lines):
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        band = [at(k, mu + sigma) for k, (mu, sigma) in enumerate(line)]
        band += [at(k, mu - sigma) for k, (mu, sigma) in reversed(list(enumerate(line)))]
        if len(line) > 1:
            d.polygon(band, fill=tuple(c // 3 + BG[i] // 2 for i, c in enumerate(colour)))
    for index, line in enumerate(lines):
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        points = [at(k, mu) for k, (mu, _) in enumerate(line)]
        if len(points) > 1:
            d.line(points, fill=colour, width=4, joint="curve")
        for x, y in points[-1:]:
            d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=colour, outline=ACCENT if index == 0 else colour)

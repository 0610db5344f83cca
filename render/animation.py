"""Replays: every state along a game's move log, and one animated GIF of the whole game.

    frames = replay_states("azul", 4, seed, moves)          # frames[k] = the table after k moves
    png = frame_png(frames[k], names=names, locale="pl")     # one picture of a move-by-move viewer
    k = next_round(frames, k)                                 # ▶▶: the first table of the next round
    gif = animate("azul", 4, seed, moves, names=names)       # the whole game, under MAX_BYTES

Pure functions of their inputs (no Discord, no disk), deterministic (same inputs, same bytes), safe to call from a
worker thread or process: the bot runs them off the event loop.

Why GIF: Discord plays an attached animated GIF inline everywhere. It does not animate APNG attachments on purpose
(discord-api-docs#6359: APNG is shown still because Android clients cannot tell it is animated), and animated WebP
attachments only animate in recent desktop clients (discord/lilliput#159), so a WebP would stand still for many
phone users. The upload limit for a bot in a server without boosts is 10 MiB (discord-api-docs#7312;
``discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES``); the animation aims at 8 MB to keep a margin (a caller that knows
a smaller limit passes ``max_bytes``).

How it stays small: every frame is the table picture scaled down to 560 px wide (about what Discord shows inline;
a 4-player table stays readable when opened on a phone), all frames share one adaptive palette (no dithering, so a
pixel that did not change keeps its index), and the GIF encoder stores only the rectangle that changed with
unchanged pixels transparent: a 173-move 4-player game is about 1 MB. When a budget is still too tight, the frames
thin out (one per turn instead of one per move, then every other turn) and shrink, in at most ``len(STEPS)`` tries;
the round ends and the final table are always kept. A long game is also thinned to play in about a minute
(``MAX_MS``).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from PIL import Image

import engine
import render
from render.replay import MAX_BYTES, Frame, next_round, previous_round, replay_states, round_starts

__all__ = [
    "MAX_BYTES",
    "AnimationTooLarge",
    "Frame",
    "animate",
    "animate_frames",
    "frame_png",
    "next_round",
    "previous_round",
    "replay_states",
    "round_starts",
]


# How long each kind of frame stays on screen, in milliseconds.
MOVE_MS = 500
ROUND_END_MS = 2500
FIRST_MS = 1500
LAST_MS = 8000
MAX_MS = 60_000  # a whole game at most: longer ones show fewer moves (round ends and the final table always)


class AnimationTooLarge(ValueError):
    """Even the smallest animation the shrinking steps allow does not fit in the byte budget."""


def frame_png(frame: Frame, *, names: Sequence[str], locale: str = "en", caption: str = "") -> bytes:
    """One table as the bot posted it (made for a phone: :func:`render.render_post`), its last move highlighted (and
    said in ``caption``, when given): one page of a move-by-move viewer."""
    return render.render_post_png(frame.state, names=names, events=frame.events, locale=locale, caption=caption)


# --- the animation --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Step:
    """One way to draw the animation; the steps are tried in order until one fits."""

    width: int  # pixels
    per_turn: bool  # one frame per turn (a player's run of moves) instead of one per move
    stride: int  # keep every ``stride``-th of those frames (round ends and the final table always)


STEPS = (
    _Step(560, per_turn=False, stride=1),
    _Step(560, per_turn=True, stride=1),
    _Step(480, per_turn=True, stride=1),
    _Step(400, per_turn=True, stride=2),
    _Step(320, per_turn=True, stride=3),
)


def animate(
    variant: str,
    players: int,
    seed: int,
    moves: Sequence[tuple[int, str]],
    *,
    names: Sequence[str],
    options: Mapping[str, engine.JSON] | None = None,
    locale: str = "en",
    max_bytes: int = MAX_BYTES,
    captions: Sequence[str] = (),
) -> bytes:
    """The whole game as an animated GIF of at most ``max_bytes`` (raises :class:`AnimationTooLarge` otherwise);
    ``captions[k]`` (optional) says the move that led to table ``k`` under it."""
    frames = replay_states(variant, players, seed, moves, options)
    return animate_frames(frames, names=names, locale=locale, max_bytes=max_bytes, captions=captions)


def animate_frames(
    frames: Sequence[Frame],
    *,
    names: Sequence[str],
    locale: str = "en",
    max_bytes: int = MAX_BYTES,
    captions: Sequence[str] = (),
) -> bytes:
    """:func:`animate` for tables already replayed by :func:`replay_states`."""
    tables = _Tables(frames, names, locale, STEPS[0].width, captions)
    tried: set[tuple[int, tuple[int, ...]]] = set()
    gif = b""
    for step in STEPS:
        chosen = _within_time(frames, step)
        if (step.width, tuple(chosen)) in tried:  # e.g. one frame per turn is one per move in Azul
            continue
        tried.add((step.width, tuple(chosen)))
        gif = _encode([tables.at(k, step.width) for k in chosen], [_duration(frames, k) for k in chosen])
        if len(gif) <= max_bytes:
            return gif
    raise AnimationTooLarge(
        f"{frames[-1].state.variant} game of {len(frames) - 1} moves: {len(gif)} bytes > {max_bytes}"
    )


def _choose(frames: Sequence[Frame], step: _Step) -> list[int]:
    """Indices of the tables shown at ``step``: the opening, then moves, the round ends and the final table."""
    kept = [0]
    for k in range(1, len(frames)):
        last = k == len(frames) - 1
        turn_goes_on = k + 1 < len(frames) and frames[k + 1].seat == frames[k].seat
        if last or frames[k].ends_round or not (step.per_turn and turn_goes_on):
            kept.append(k)
    must = {0, len(frames) - 1} | {k for k in kept if frames[k].ends_round}
    return [k for n, k in enumerate(kept) if k in must or n % step.stride == 0]


def _within_time(frames: Sequence[Frame], step: _Step) -> list[int]:
    """The frames of ``step``, thinned further (a larger stride) until the whole game plays in ``MAX_MS`` at most:
    a long game is watched, not skipped through."""
    stride = step.stride
    chosen = _choose(frames, step)
    while sum(_duration(frames, k) for k in chosen) > MAX_MS and stride < len(frames):
        stride += 1
        chosen = _choose(frames, replace(step, stride=stride))
    return chosen


def _duration(frames: Sequence[Frame], k: int) -> int:
    if k == len(frames) - 1:
        return LAST_MS
    if k == 0:
        return FIRST_MS
    return ROUND_END_MS if frames[k].ends_round else MOVE_MS


class _Tables:
    """Each table drawn once, scaled to the first step's width and kept in palette mode (a third of the memory of
    RGB: a long 4-player game holds ~80 MB instead of ~240 MB); smaller steps scale those down."""

    def __init__(
        self, frames: Sequence[Frame], names: Sequence[str], locale: str, width: int, captions: Sequence[str] = ()
    ) -> None:
        self.frames, self.names, self.locale, self.width = frames, names, locale, width
        self.captions = captions
        self._kept: dict[int, Image.Image] = {}
        self._palette: Image.Image | None = None

    def _draw(self, k: int) -> Image.Image:
        frame = self.frames[k]
        caption = self.captions[k] if k < len(self.captions) else ""
        table = render.render_post(
            frame.state, names=self.names, events=frame.events, locale=self.locale, caption=caption
        )
        return _scaled(table, self.width)

    def _shared_palette(self) -> Image.Image:
        if self._palette is None:
            last = len(self.frames) - 1
            self._palette = _palette([self._draw(k) for k in sorted({0, last // 2, last})])
        return self._palette

    def at(self, k: int, width: int) -> Image.Image:
        if k not in self._kept:
            self._kept[k] = self._draw(k).quantize(palette=self._shared_palette(), dither=Image.Dither.NONE)
        kept = self._kept[k]
        return kept if width >= self.width else _scaled(kept.convert("RGB"), width)


def _scaled(image: Image.Image, width: int) -> Image.Image:
    if image.width <= width:
        return image
    height = round(image.height * width / image.width)
    return image.resize((width, height), Image.Resampling.BOX)  # sharp enough at half size, 3x cheaper than Lanczos


def _encode(images: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    """One GIF with one colour table. Tables already in one shared palette go in as they are; others are fitted to
    a palette of a few of them. A table smaller than the largest (the final one may grow a standings table) sits
    top-left on a canvas of its background colour."""
    size = (max(image.width for image in images), max(image.height for image in images))
    shared = images[0].getpalette() if images[0].mode == "P" else None
    if shared is not None and all(image.mode == "P" and image.getpalette() == shared for image in images):
        frames = [_on_canvas(image, size) for image in images]
    else:
        picks = sorted({0, len(images) // 2, len(images) - 1})
        palette = _palette([_on_canvas(images[k].convert("RGB"), size) for k in picks])
        shared = palette.getpalette()
        frames = [
            _on_canvas(image.convert("RGB"), size).quantize(palette=palette, dither=Image.Dither.NONE)
            for image in images
        ]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=list(durations),
        loop=0,
        palette=shared,
        optimize=True,  # with a free palette index: pixels equal to the previous frame's become transparent
        disposal=1,
    )
    return out.getvalue()


def _on_canvas(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` (RGB, or P keeping its palette) top-left on a canvas of ``size`` filled with its corner colour."""
    if image.size == size:
        return image
    canvas = Image.new(image.mode, size, image.getpixel((0, 0)))
    if image.mode == "P":
        canvas.putpalette(image.getpalette() or [])
    canvas.paste(image, (0, 0))
    return canvas


def _palette(images: Sequence[Image.Image]) -> Image.Image:
    """255 colours fitted to a few tables (the 256th index stays free for transparency); no dithering, so a pixel
    that did not change keeps its index and the encoder can skip it."""
    sheet = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)))
    y = 0
    for image in images:
        sheet.paste(image.convert("RGB"), (0, y))
        y += image.height
    return sheet.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)

"""Replays: the states along a move log, round navigation, and the animated GIF (what it shows, its timing, that it
fits in the upload budget and shrinks when asked to)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

import engine
import render
from render import animation
from tests.render.recorded_games import recorded_game

GOLDEN_GAMES = Path(__file__).resolve().parents[1] / "engine" / "golden"
NAMES = ["Zoë", "Олександра", "Bob", "Kuba"]
Game = tuple[dict[str, Any], list[tuple[int, str]]]  # a transcript and its (seat, notation) log


def logged_moves(transcript_file: str) -> Game:
    game = json.loads((GOLDEN_GAMES / transcript_file).read_text(encoding="utf-8"))
    moves = [(move["seat"], move["notation"]) for entry in game["rounds"] for move in entry["moves"]]
    return game, moves


@pytest.fixture(scope="module")
def azul_game() -> Game:
    return logged_moves("azul-2p-seed2-random.json")


@pytest.fixture(scope="module")
def azul_gif(azul_game: Game) -> bytes:
    game, moves = azul_game
    return animation.animate("azul", 2, game["seed"], moves, names=NAMES[:2])


def decoded(gif: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame as a person sees it (composited over the previous ones) with its duration."""
    with Image.open(io.BytesIO(gif)) as image:
        assert image.format == "GIF" and image.info["loop"] == 0
        return [(frame.convert("RGB"), frame.info["duration"]) for frame in ImageSequence.Iterator(image)]


def looks_like(shown: Image.Image, table: Image.Image) -> bool:
    """``shown`` is ``table`` scaled as the animation scales it (top-left when the canvas is taller), up to palette
    rounding: no pixel far off in any channel."""
    expected = animation._scaled(animation._scaled(table, animation.STEPS[0].width), shown.width)
    crop = shown.crop((0, 0, *expected.size))
    extrema = cast(tuple[tuple[int, int], ...], ImageChops.difference(crop, expected.convert("RGB")).getextrema())
    worst = max(high for _, high in extrema)
    return worst < 60


def distance(shown: Image.Image, table: Image.Image) -> float:
    """Mean absolute difference per channel between ``shown`` and ``table`` scaled to its width (top-left)."""
    expected = table.convert("RGB").resize((shown.width, round(table.height * shown.width / table.width)))
    diff = ImageChops.difference(shown.crop((0, 0, *expected.size)), expected)
    return sum(ImageStat.Stat(diff).mean)


# --- states and rounds ------------------------------------------------------------------------------------------
def test_replay_states_has_every_table_of_the_log(azul_game: Game) -> None:
    game, moves = azul_game
    frames = animation.replay_states("azul", 2, game["seed"], moves)
    assert len(frames) == len(moves) + 1
    assert frames[0].move == 0 and frames[0].seat is None and frames[0].events == ()
    assert [(f.seat, f.notation) for f in frames[1:]] == moves
    final = engine.replay("azul", 2, game["seed"], moves)
    assert engine.to_json(frames[-1].state) == engine.to_json(final)
    assert frames[-1].ends_game and engine.is_over(frames[-1].state)
    assert sum(frame.ends_round for frame in frames) == len(game["rounds"])


def test_rounds_start_where_the_engine_deals_them(azul_game: Game) -> None:
    game, moves = azul_game
    frames = animation.replay_states("azul", 2, game["seed"], moves)
    starts = animation.round_starts(frames)
    dealt = [k for k, frame in enumerate(frames) if any(e.kind == "round_started" for e in frame.events)]
    assert starts == [0, *dealt]
    assert [frames[k].round for k in starts] == list(range(1, len(game["rounds"]) + 1))
    # A round starts on the table right after the move that ended the previous one, its scoring highlighted.
    assert all(frames[k].ends_round for k in dealt)
    first_moves = [move["notation"] for move in game["rounds"][1]["moves"]]
    assert frames[starts[1] + 1].notation == first_moves[0]


def test_round_navigation_goes_by_whole_rounds(azul_game: Game) -> None:
    game, moves = azul_game
    frames = animation.replay_states("azul", 2, game["seed"], moves)
    starts = animation.round_starts(frames)
    last = len(frames) - 1
    assert animation.next_round(frames, 0) == starts[1]
    assert animation.next_round(frames, starts[1] - 1) == starts[1]
    assert animation.next_round(frames, starts[-1]) == last  # from the last round: the final table
    assert animation.next_round(frames, last) == last
    assert animation.previous_round(frames, starts[2] + 3) == starts[2]  # back to the start of this round
    assert animation.previous_round(frames, starts[2]) == starts[1]  # already there: the round before
    assert animation.previous_round(frames, 0) == 0


def test_a_viewer_frame_is_the_posted_table_with_its_move(azul_game: Game) -> None:
    game, moves = azul_game
    frames = animation.replay_states("azul", 2, game["seed"], moves)
    png = animation.frame_png(frames[5], names=NAMES[:2], locale="pl")
    expected = render.render_post_png(frames[5].state, names=NAMES[:2], events=frames[5].events, locale="pl")
    assert png == expected


# --- the animation ----------------------------------------------------------------------------------------------
def test_the_animation_shows_every_move_and_ends_on_the_final_table(azul_game: Game, azul_gif: bytes) -> None:
    game, moves = azul_game
    frames = animation.replay_states("azul", 2, game["seed"], moves)
    shown = decoded(azul_gif)
    assert len(shown) == len(moves) + 1  # a 2-player game fits at the first step: one frame per move
    first = render.render_post(frames[0].state, names=NAMES[:2])
    assert shown[0][0].width == min(first.width, animation.STEPS[0].width)  # scaled down, never up
    for k in (0, 7, len(frames) // 2, len(frames) - 1):
        table = render.render_post(frames[k].state, names=NAMES[:2], events=frames[k].events)
        assert looks_like(shown[k][0], table), f"frame {k}"
    assert not looks_like(shown[7][0], render.render_post(frames[8].state, names=NAMES[:2], events=frames[8].events))


def test_round_ends_and_the_end_stay_longer(azul_game: Game, azul_gif: bytes) -> None:
    game, moves = azul_game
    frames = animation.replay_states("azul", 2, game["seed"], moves)
    durations = [duration for _, duration in decoded(azul_gif)]
    assert durations[0] == animation.FIRST_MS and durations[-1] == animation.LAST_MS
    for k in range(1, len(frames) - 1):
        assert durations[k] == (animation.ROUND_END_MS if frames[k].ends_round else animation.MOVE_MS), k


def test_the_animation_is_deterministic() -> None:
    game, moves = logged_moves("summer_pavilion-2p-seed2-random.json")
    first = animation.animate("summer-pavilion", 2, game["seed"], moves[:6], names=NAMES[:2], locale="uk")
    again = animation.animate("summer-pavilion", 2, game["seed"], moves[:6], names=NAMES[:2], locale="uk")
    assert first == again and first.startswith(b"GIF89a")


def test_a_tight_budget_thins_and_shrinks_the_frames() -> None:
    game, moves = logged_moves("azul-4p-seed2-random.json")
    moves = moves[:20]
    roomy = animation.animate("azul", 4, game["seed"], moves, names=NAMES)
    tight = animation.animate("azul", 4, game["seed"], moves, names=NAMES, max_bytes=len(roomy) * 2 // 3)
    assert len(tight) <= len(roomy) * 2 // 3
    (roomy_first, _), *roomy_rest = decoded(roomy)
    (tight_first, _), *tight_rest = decoded(tight)
    assert tight_first.width < roomy_first.width or len(tight_rest) < len(roomy_rest)
    # The final table is always the last frame, whatever was left out: it is nearer to it than to the ones before.
    frames = animation.replay_states("azul", 4, game["seed"], moves)
    tables = [render.render_post(f.state, names=NAMES, events=f.events) for f in frames[-3:]]
    last = decoded(tight)[-1][0]
    distances = [distance(last, table) for table in tables]
    assert distances[-1] < min(distances[:-1])


def test_an_impossible_budget_is_refused_with_the_sizes() -> None:
    game, moves = logged_moves("azul-2p-seed2-random.json")
    with pytest.raises(animation.AnimationTooLarge, match="bytes > 1000"):
        animation.animate("azul", 2, game["seed"], moves[:4], names=NAMES[:2], max_bytes=1000)


@pytest.mark.slow  # animates a game of over a hundred moves
def test_the_longest_queens_garden_game_fits_the_upload_budget() -> None:
    game = recorded_game("queens-garden")
    assert game["players"] == 4 and len(game["moves"]) >= 100
    gif = animation.animate(game["variant"], 4, game["seed"], game["moves"], names=NAMES)
    assert len(gif) <= animation.MAX_BYTES
    assert len(decoded(gif)) > len(game["moves"]) // 2  # it fitted without dropping most moves


def test_thinner_steps_keep_the_opening_round_ends_and_the_end() -> None:
    game, moves = logged_moves("summer_pavilion-2p-seed2-random.json")
    frames = animation.replay_states("summer-pavilion", 2, game["seed"], moves)
    round_ends = {k for k, frame in enumerate(frames) if frame.ends_round}
    every = animation._choose(frames, animation.STEPS[0])
    assert every == list(range(len(frames)))
    for step in animation.STEPS[1:]:
        chosen = animation._choose(frames, step)
        assert chosen == sorted(set(chosen)) and {0, len(frames) - 1} | round_ends <= set(chosen)
        assert len(chosen) < len(every)  # Summer Pavilion players place several tiles in one turn
        for k in chosen[:-1]:
            # one frame per turn: the table after a player's last move of a run (or a round's end)
            assert k == 0 or k in round_ends or frames[k + 1].seat != frames[k].seat


def test_a_long_game_is_thinned_to_play_in_a_minute(azul_game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    game, moves = azul_game
    frames = animation.replay_states("azul", 2, game["seed"], moves)
    everything = animation._within_time(frames, animation.STEPS[0])
    assert len(everything) == len(frames), "a game that plays within the limit keeps every move"
    monkeypatch.setattr(animation, "MAX_MS", 30_000)
    chosen = animation._within_time(frames, animation.STEPS[0])
    assert sum(animation._duration(frames, k) for k in chosen) <= 30_000
    assert chosen[0] == 0 and chosen[-1] == len(frames) - 1, "the opening and the final table stay"
    assert {k for k in range(len(frames)) if frames[k].ends_round} <= set(chosen), "every round end stays"
    assert len(chosen) < len(frames)

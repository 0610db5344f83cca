"""The replay viewer, its animation and the export's move list, through the real bot against SimCord, for a whole
finished game of each of the three games (in en, pl and uk)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from render.animation import replay_states, round_starts
from tests.bot.conftest import USER_LOCALES
from tests.bot.table import Table
from tests.bot.test_stats import save

CAPTION = {"en": "move {k} of {n}", "pl": "ruch {k} z {n}", "uk": "хід {k} з {n}"}


async def play_out(table: Table) -> None:
    """Play the game here to its end with the greedy agent, through the game service (no boards posted)."""
    while (await table.game()).status == "active":
        member, _seat, move = await table.choose()
        await table.bot.service.turns.move(table.channel.id, member.id, move.command, dict(move.choices()))


async def png_of(result: Any) -> bytes:
    data: bytes = await result.response.attachments[0].read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return data


@pytest.mark.slow  # three whole games, every move drawn
@pytest.mark.simcord(settle_timeout=240)  # a whole animation takes a while on a busy machine; below the 5-min sweep
@pytest.mark.parametrize(("variant", "lang"), [("azul", "en"), ("summer-pavilion", "pl"), ("queens-garden", "uk")])
async def test_viewer_and_animation_show_every_move(simcord_env, variant: str, lang: str) -> None:
    table = Table.create(simcord_env, 2)
    alice = table.players[0]
    USER_LOCALES[alice.id] = lang
    await table.open(variant)
    await play_out(table)
    game = await table.game()
    moves = await table.bot.service.store.moves.moves(game.id)
    total = len(moves)
    caption = CAPTION[lang]

    shown = await alice.slash(table.channel, "azul-stats replay", game=game.id)
    assert shown.ephemeral and caption.format(k=0, n=total) in shown.response.content
    await png_of(shown)
    message = shown.response
    for k in range(1, total + 1):
        step = await alice.click(message, label="▶")
        message = step.response
        assert caption.format(k=k, n=total) in message.content, (k, message.content)
        assert f"`{moves[k - 1][1]}`" in message.content, "the caption names the move in the game's notation"
        frame = await png_of(step)
        if k == total // 2:
            save(f"replay-{variant}-{k}.png", frame)
    forward = next(c for row in message.components for c in row["components"] if c.get("label") == "▶")
    assert forward.get("disabled"), "no ▶ after the last move"

    starts = round_starts(replay_states(variant, 2, game.seed, moves, game.options or None))
    assert len(starts) > 1
    seen = []
    for _ in starts:
        back = await alice.click(message, label="◀◀")
        message = back.response
        seen.append(next(k for k in range(total + 1) if caption.format(k=k, n=total) in message.content))
    assert seen == sorted(starts, reverse=True), "◀◀ stops at the first table of every round"
    onward = await alice.click(message, label="▶▶")
    assert caption.format(k=starts[1], n=total) in onward.response.content

    animation = await alice.click(onward.response, label={"en": "Animation", "pl": "Animacja", "uk": "Анімація"}[lang])
    gif_message = animation.response  # the deferred answer's first follow-up replaces "thinking…"
    assert gif_message.ephemeral and gif_message.attachments[0].filename.endswith(".gif")
    gif = Image.open(io.BytesIO(await gif_message.attachments[0].read()))
    durations = []
    for index in range(gif.n_frames):
        gif.seek(index)
        durations.append(gif.info["duration"])
    plays_in = sum(durations)
    assert gif.is_animated and 1 < gif.n_frames <= total + 1, "the opening deal, then the moves"
    assert plays_in <= 60_000 and (gif.n_frames == total + 1 or plays_in > 45_000), "all moves, or a minute's worth"

    export = await alice.slash(table.channel, "azul export")
    files = export.response.attachments
    assert [f.filename.rsplit(".", 1)[1] for f in files] == ["json", "txt"]
    listed = (await files[1].read()).decode()
    notations = [line.split(": ", 1)[1] for line in listed.splitlines() if line[:5].strip().rstrip(".").isdigit()]
    assert notations == [notation for _, notation in moves]


async def test_the_viewer_keeps_working_after_a_restart(simcord_env, make_bot) -> None:
    table = Table.create(simcord_env, 2)
    alice, bob = table.players
    await table.open("azul")
    for _ in range(3):
        member, _seat, move = await table.choose()
        await table.bot.service.turns.move(table.channel.id, member.id, move.command, dict(move.choices()))
    await table.confirmed(bob, "resign")
    game = await table.game()
    shown = await alice.slash(table.channel, "azul-stats replay", game=game.id)
    await simcord_env.restart_bot(make_bot())
    step = await alice.click(shown.response, label="▶")
    assert "move 1 of 3" in step.response.content
    stale_other_server = Table.create(simcord_env, 1)
    refused = await stale_other_server.players[0].slash(stale_other_server.channel, "azul-stats replay", game=game.id)
    assert refused.ephemeral and f"#{game.id}" in refused.response.content

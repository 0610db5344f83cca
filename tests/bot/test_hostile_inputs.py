"""Every input a Discord client would not send gets a clear answer and logs no traceback (issue 36), through the real
bot over the wire. The inputs are found by walking the bot itself, so a new option or control is covered at once:

- every option with choices, given a value outside them (discord.py's ``TransformerError``);
- every user option, given an id Discord resolved to nobody;
- a command the bot no longer has (a client showing a command tree from before the last sync);
- every persistent control, its custom id forged with the largest number each field takes (2^63 - 1) and every
  alternative of its other fields: pages, replay frames, versions, pickers past anything that exists.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands

from bot.client import CONTROLS, AzulBot
from bot.ui.controls import LARGEST
from tests.bot import wire_games as wire
from tests.bot.fake_discord import FakeDiscord
from tests.bot.test_reliability import running
from tests.bot.test_store_files import SETTLE, board_of, until

NOBODY = str(LARGEST - 7)
"""A user id Discord knows nothing about (the interaction resolves no user for it)."""
OFF_CHOICES = "not-a-choice"
WORDS = ("azul", "server", "channel")
"""Words a control's word fields take (a game family, a scope), so a forged number reaches the code that uses it."""


def filled(parameter: app_commands.Parameter) -> dict[str, Any]:
    """A value that fits ``parameter``, as Discord sends it."""
    if parameter.choices:
        return {"type": parameter.type.value, "value": parameter.choices[0].value}
    if parameter.type is AppCommandOptionType.integer:
        return {"type": 4, "value": int(parameter.min_value or 1)}
    if parameter.type is AppCommandOptionType.boolean:
        return {"type": 5, "value": True}
    return {"type": 3, "value": "x"}


def hostile_options(bot: AzulBot) -> Iterator[tuple[str, str, dict[str, Any], str]]:
    """(command, subcommand, options, the option at fault) for every option with choices and every user option."""
    for command in bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        top, *rest = command.qualified_name.split(" ")
        required = {p.display_name: filled(p) for p in command.parameters if p.required}
        for parameter in command.parameters:
            if parameter.choices:
                kind = parameter.type.value
                bad = {"type": kind, "value": 987654 if kind == 4 else OFF_CHOICES}
            elif parameter.type is AppCommandOptionType.user:
                bad = {"type": 6, "value": NOBODY}
            else:
                continue
            yield top, " ".join(rest), {**required, parameter.display_name: bad}, parameter.display_name


GROUP = re.compile(r"\(\?P<(?P<name>\w+)>(?P<body>(?:[^()]|\((?!\?P<)[^()]*\))*)\)")


def forged_ids(template: str) -> Iterator[str]:
    """Every custom id the template takes with each number at its largest and each choice of words in turn."""
    fields: list[tuple[str, list[str]]] = []
    for group in GROUP.finditer(template):
        body = group["body"]
        if body.startswith("[0-9]{1,19}"):
            fields.append((group[0], [str(LARGEST)]))
        elif body.startswith("[0-9]"):
            fields.append((group[0], ["99"]))
        elif body.startswith("["):
            fields.append((group[0], list(WORDS)))
        else:
            alternatives = re.split(r"\|(?![^()]*\))", body)
            fields.append((group[0], [re.sub(r"\(\?:([^|)]*)[^)]*\)", r"\1", a) for a in alternatives]))
    for values in itertools.product(*(choices for _, choices in fields)):
        forged = template
        for (whole, _), value in zip(fields, values, strict=True):
            forged = forged.replace(whole, value, 1)
        yield forged.replace("\\", "")


def test_the_forged_ids_fit_their_controls() -> None:
    for control in CONTROLS:
        template = control.__discord_ui_compiled_template__
        ids = list(forged_ids(template.pattern))
        assert ids and all(template.fullmatch(custom_id) for custom_id in ids), (control.__name__, ids)


@pytest.mark.slow  # some forty interactions through the bot over the wire
async def test_every_hostile_input_gets_a_clear_answer_and_no_traceback(
    discord_server: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "azul.sqlite3"
    await wire.prepare_games(str(db), 1)
    async with running(discord_server, str(db)) as bot:
        await until(lambda: board_of(db) == 0, "the opening board")
        game = wire.game_in(str(db), wire.FIRST_CHANNEL)
        user = game.users[0]
        caplog.clear()
        said: list[tuple[str, str | None]] = []
        for top, sub, options, field in hostile_options(bot):
            sent = await discord_server.slash(
                guild_id=wire.GUILD,
                channel_id=wire.FIRST_CHANNEL,
                user_id=user,
                command=top,
                sub=sub,
                options=options,
                locale="en-US",
            )
            answer = await wire.answer(discord_server, sent, SETTLE)
            said.append((f"/{top} {sub} {field}", answer))
            assert answer is not None and f"`{field}`" in answer, (top, sub, field, answer)
            assert "went wrong" not in answer, (top, sub, field, answer)
        for top, sub in (("azul", "no-such-command"), ("azul-gone", "")):
            sent = await discord_server.slash(
                guild_id=wire.GUILD, channel_id=wire.FIRST_CHANNEL, user_id=user, command=top, sub=sub
            )
            answer = await wire.answer(discord_server, sent, SETTLE)
            said.append((f"/{top} {sub} (stale)", answer))
            assert answer is not None and "`/`" in answer, (top, sub, answer)  # the fake's default locale: Polish
        board = discord_server.messages[str(game.board_message_id)]
        for control in CONTROLS:
            for custom_id in forged_ids(control.__discord_ui_compiled_template__.pattern):
                # On the message as the click carries it: Discord delivers only ids that its message holds.
                button = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
                board["components"] = [{"type": 1, "components": [button]}]
                sent = await discord_server.click(
                    guild_id=wire.GUILD, user_id=user, message_id=str(game.board_message_id), custom_id=custom_id
                )
                answer = await wire.answer(discord_server, sent, SETTLE)
                said.append((custom_id, answer))
                assert answer and "went wrong" not in answer, (custom_id, answer)
        await wire.handled(SETTLE)
    for what, answer in said:
        print(f"{what}: {answer}")
    faults = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not faults, [(r.getMessage(), r.exc_info and r.exc_info[1]) for r in faults]
    assert sum(1 for what, _ in said if what.startswith("/")) >= 20, said
    reached = [what for what, answer in said if what.startswith("azul:") and "recognise" not in (answer or "")]
    assert len(reached) >= 20, "the forged ids reach their controls (a page past any listing is refused as forged)"

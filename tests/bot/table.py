"""A game table in SimCord: a server, a channel, players, and ways to play a turn by slash command or by buttons."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import engine
from bot.client import AzulBot
from bot.infra.store import GameRow
from engine.agents import GreedyAgent

MENTION = re.compile(r"<@!?(\d+)>")
BUTTON = 2


def tail_pairs(value: str, first: str, move: engine.Move) -> list[tuple[str, str]]:
    """A picker value for ``first`` and the options after it (``A2|3`` for area and rotation), as pairs."""
    options = [option for option, _ in move.choices()]
    tokens = value.split("|")
    start = options.index(first)
    return list(zip(options[start : start + len(tokens)], tokens, strict=True))


def set_values(move: engine.Move, wanted: dict[str, str], select: dict[str, Any]) -> list[str]:
    """The multi-select values (``item:n``) that make up the move's set for the option this select asks for."""
    option = select["custom_id"].split(":")[3]
    variant = next(
        engine.get_variant(name)
        for name in engine.variant_names()
        if any(c.name == move.command and option in c.sets for c in engine.get_variant(name).commands)
    )
    counts = variant.split_set(move.command, option, wanted[option])
    return [f"{item}:{number}" for item, count in counts.items() for number in range(1, count + 1)]


def mentions(content: str) -> list[int]:
    return [int(found) for found in MENTION.findall(content)]


@dataclass
class Table:
    env: Any
    guild: Any
    channel: Any
    players: list[Any]
    agent: GreedyAgent = field(default_factory=lambda: GreedyAgent(7))

    @property
    def bot(self) -> AzulBot:
        bot: AzulBot = self.env.bot
        return bot

    @classmethod
    def create(cls, env: Any, count: int, *, preferred_locale: str | None = None) -> Table:
        guild = env.create_guild(preferred_locale=preferred_locale) if preferred_locale else env.create_guild()
        channel = guild.create_text_channel("azul")
        names = ["alice", "bob", "carol", "dave", "erin"]
        players = [guild.add_member(env.create_user(name)) for name in names[:count]]
        return cls(env, guild, channel, players)

    async def open(self, variant: str = "azul", seats: int | None = None, order: str = "joined") -> None:
        """Alice opens the game, the others join by slash command, Alice starts by the lobby button."""
        creator, *others = self.players
        result = await creator.slash(
            self.channel, "azul new", variant=variant, seats=seats or len(self.players), order=order
        )
        assert not result.ephemeral, result
        lobby = self.channel.last_message
        for player in others:
            joined = await player.slash(self.channel, "azul join")
            assert joined.ephemeral, joined
        started = await creator.click(lobby, label="Start")
        assert started.ephemeral

    async def confirmed(self, member: Any, command: str) -> Any:
        """``/azul resign`` or ``/azul abort`` (``command``: "resign" or "abort") and its one confirming click; the
        click's result (whose ephemeral reply says what was done)."""
        return await confirmed(member, self.channel, command)

    async def game(self) -> GameRow:
        game = await self.bot.service.store.games.latest_game_in(self.channel.id)
        assert game is not None
        return game

    async def state(self) -> tuple[GameRow, Any]:
        game = await self.game()
        return game, engine.from_json(game.state or {})

    def member(self, game: GameRow, seat: int) -> Any:
        user_id = game.by_seat()[seat].user_id
        return next(player for player in self.players if player.id == user_id)

    async def choose(self) -> tuple[Any, int, engine.Move]:
        """Whoever acts first now, and the move the greedy agent picks for them."""
        game, state = await self.state()
        seat = min(engine.to_act(state))
        move = self.agent.choose(engine.variant_of(state), state, seat)
        return self.member(game, seat), seat, move

    async def play_by_slash(self, member: Any, move: engine.Move) -> Any:
        version = (await self.game()).version
        result = await member.slash(self.channel, f"azul-move {move.command}", **dict(move.choices()))
        assert result.ephemeral and (await self.game()).version == version + 1, result.response.content
        return result

    async def play_by_buttons(self, member: Any, move: engine.Move) -> Any:
        """Play through the Play button's picker, answering each step from the move's choices."""
        result = await member.click(self.channel.last_message, label="Play")
        assert result.ephemeral, result
        return await self.finish_picker(member, result, move)

    async def picker_step(self, member: Any, picker: Any, move: engine.Move) -> Any:
        """Answer the step ``picker`` (an ephemeral picker message) asks for, from the move's choices: a select (one
        option, or several joined by ``|``), a set's multi-select (one value per item), or the confirm button."""
        wanted = dict(move.choices())
        components = [row["components"][0] for row in picker.components]
        if components[0]["type"] == BUTTON:
            return await member.click(picker, custom_id=components[0]["custom_id"])
        selects = components
        if selects[0].get("max_values", 1) > 1 or selects[0].get("min_values", 1) == 0:
            return await member.select(picker, set_values(move, wanted, selects[0]), custom_id=selects[0]["custom_id"])
        values = {o["value"] for s in selects for o in s["options"]}
        option = selects[0]["custom_id"].split(":")[3]  # azul:pick:<picker>:<option>:<n>
        if option == "run":
            return await self.run_pick(member, picker, move)
        if option == "command":
            value = move.command
        else:
            value = next(v for v in values if all(wanted.get(o) == t for o, t in tail_pairs(v, option, move)))
        select = next(s for s in selects if value in {o["value"] for o in s["options"]})
        return await member.select(picker, [value], custom_id=select["custom_id"])

    async def run_pick(self, member: Any, picker: Any, move: engine.Move) -> Any:
        """One pick in a run's step (a select per grey-wall line): the move itself where a select offers it and it
        is not picked yet, else the first column of the first line still without one."""
        selects = [row["components"][0] for row in picker.components]
        for select in selects:
            options = {o["value"]: o for o in select["options"]}
            if str(move) in options and not options[str(move)].get("default"):
                return await member.select(picker, [str(move)], custom_id=select["custom_id"])
        select = next(s for s in selects if not any(o.get("default") for o in s["options"]))
        return await member.select(picker, [select["options"][0]["value"]], custom_id=select["custom_id"])

    async def finish_picker(self, member: Any, result: Any, move: engine.Move) -> Any:
        """Answer the picker's steps until the move is played (the reply may then offer the player's next step)."""
        version = (await self.game()).version
        for _ in range(len(move.choices()) + 8):  # a grey wall's run: a pick per full line
            if not result.response.components or (await self.game()).version != version:
                return result
            result = await self.picker_step(member, result.response, move)
        raise AssertionError(f"the picker did not finish: {result.response.content!r}")


async def confirmed(member: Any, channel: Any, command: str) -> Any:
    """``/azul resign`` or ``/azul abort`` in ``channel`` and its one confirming click; the click's result."""
    asked = await member.slash(channel, f"azul {command}")
    assert asked.ephemeral and asked.response.components, asked.response.content
    button = asked.response.components[0]["components"][0]
    return await member.click(asked.response, custom_id=button["custom_id"])

"""The steps of Play pickers, so a half-made choice survives a restart (rows of older versions are dropped)."""

from __future__ import annotations

import json

from bot.infra.store.base import Aggregate, inserted_id
from bot.infra.store.rows import PickerRow

PICKERS_KEPT_VERSIONS = 8
"""A new picker step drops its game's steps of versions this many versions older (a picker still open on an older
table is told the game moved on); a move writes nothing here."""


class Pickers(Aggregate):
    """The steps of Play pickers, so a half-made choice survives a restart."""

    async def picker(self, picker_id: int) -> PickerRow | None:
        rows = await self._fetchall("SELECT * FROM pickers WHERE id = ?", (picker_id,))
        if not rows:
            return None
        row = rows[0]
        return PickerRow(
            row["id"],
            row["game_id"],
            row["version"],
            row["user_id"],
            row["command"],
            json.loads(row["chosen"]),
            row["option"],
        )

    async def create_picker(
        self, game_id: int, version: int, user_id: int, *, command: str | None, chosen: dict[str, str], option: str
    ) -> int:
        async with self.transaction() as db:
            picker_id = await inserted_id(
                db,
                "INSERT INTO pickers (game_id, version, user_id, command, chosen, option) VALUES (?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                (game_id, version, user_id, command, json.dumps(chosen), option),
            )
            # A picker outlives a few versions: in a simultaneous phase another player's move does not end it (the
            # service checks its choice against the newest state), and a repeated one is told "already played".
            await db.execute(
                "DELETE FROM pickers WHERE game_id = ? AND version <= ?", (game_id, version - PICKERS_KEPT_VERSIONS)
            )
            return picker_id or 0

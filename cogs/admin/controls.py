"""The server settings' controls (``/yahtzee-admin``).

=====================================  ==========================================================
custom_id                              component
=====================================  ==========================================================
``yz:lbreset:<guild>``                 confirm a leaderboard reset
``yz:set:<guild>:<field>``             a server setting's select
``yz:set:<guild>:threads``             games in threads on/off (``autoroll``: first roll made)
=====================================  ==========================================================
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.shared.controls import ID, Button, Control, Select, SelectControl, choice


class ResetConfirmButton(
    Control[Button], key="lbreset", fields={"guild_id": ID}, handler="reset_confirmed",
    cog="Admin",
):  # fmt: skip
    """Confirms /yahtzee-admin reset-leaderboard."""

    def __init__(self, guild_id: int, label: str = "Reset the leaderboard") -> None:
        button = Button(
            label=label,
            style=discord.ButtonStyle.danger,
            custom_id=self.make_id(guild_id=guild_id),
        )
        super().__init__(button, guild_id=guild_id)


SETTING_ROWS = {"preset": 0, "turn": 1, "policy": 2, "language": 3}


class SettingSelect(
    SelectControl,
    key="set",
    fields={"guild_id": ID, "field": choice(*SETTING_ROWS)},
    handler="change_setting",
    cog="Admin",
):
    """A server setting's menu."""

    def __init__(
        self, guild_id: int, field: str, options: list[discord.SelectOption] | None = None
    ) -> None:
        select = Select(
            custom_id=self.make_id(guild_id=guild_id, field=field),
            options=options or [discord.SelectOption(label="-", value="-")],
            row=SETTING_ROWS[field],
        )
        super().__init__(select, guild_id=guild_id, field=field)


#: The server settings that are switches: their buttons' words.
TOGGLES = {"threads": "Games in threads", "autoroll": "First roll made for the player"}


class ThreadsButton(
    Control[Button],
    key="set",
    fields={"guild_id": ID, "field": choice(*TOGGLES)},
    handler="change_setting",
    cog="Admin",
):
    """Turns a switch setting on or off: thread mode, or each turn's opening roll."""

    def __init__(
        self, guild_id: int, field: str = "threads", on: bool = False, label: str | None = None
    ) -> None:
        button = Button(
            label=label or f"{TOGGLES[field]}: {'on' if on else 'off'}",
            style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
            custom_id=self.make_id(guild_id=guild_id, field=field),
            row=4,
        )
        super().__init__(button, guild_id=guild_id, field=field)

    @classmethod
    def chosen(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {"value": ""}

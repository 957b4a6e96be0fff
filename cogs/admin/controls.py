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

from typing import Annotated

import discord

from cogs.shared.controls import Button, ButtonControl, Select, SelectControl, Snowflake, one_of


class ResetConfirmButton(ButtonControl, key="lbreset"):
    """Confirms /yahtzee-admin reset-leaderboard."""

    guild_id: Snowflake

    def button(self, label: str = "Reset the leaderboard") -> Button:
        return Button(label=label, style=discord.ButtonStyle.danger, custom_id=self.custom_id)


SETTING_ROWS = {"preset": 0, "turn": 1, "policy": 2, "language": 3}


class SettingSelect(SelectControl, key="set"):
    """A server setting's menu."""

    guild_id: Snowflake
    field: Annotated[str, one_of(*SETTING_ROWS)]

    def select(self, options: list[discord.SelectOption] | None = None) -> Select:
        return Select(
            custom_id=self.custom_id,
            options=options or [discord.SelectOption(label="-", value="-")],
            row=SETTING_ROWS[self.field],
        )


#: The server settings that are switches: their buttons' words.
TOGGLES = {"threads": "Games in threads", "autoroll": "First roll made for the player"}


class SwitchButton(ButtonControl, key="set"):
    """Turns a switch setting on or off: thread mode, or each turn's opening roll."""

    guild_id: Snowflake
    field: Annotated[str, one_of(*TOGGLES)]

    def button(self, on: bool = False, label: str | None = None) -> Button:
        return Button(
            label=label or f"{TOGGLES[self.field]}: {'on' if on else 'off'}",
            style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
            custom_id=self.custom_id,
            row=4,
        )

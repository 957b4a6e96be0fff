"""The server settings' controls (``/yahtzee-admin``).

=====================================  ==========================================================
custom_id                              component
=====================================  ==========================================================
``yz:lbreset:<guild>``                 confirm a leaderboard reset
``yz:set:<guild>:<field>``             a server setting's select (preset, turn, policy,
                                       language), each setting a kind of its own
``yz:set:<guild>:threads``             games in threads on/off (``autoroll``: first roll made)
=====================================  ==========================================================
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import discord

from cogs.shared.controls import Button, ButtonControl, Select, SelectControl, Snowflake, one_of


class ResetConfirmButton(ButtonControl, key="lbreset"):
    """Confirms /yahtzee-admin reset-leaderboard."""

    guild_id: Snowflake

    def button(self, label: str = "Reset the leaderboard") -> Button:
        return Button(label=label, style=discord.ButtonStyle.danger, custom_id=self.custom_id)


class SettingMenu(SelectControl):
    """A server setting's menu (``yz:set:<guild>:<field>``): each setting a kind of its own."""

    row: ClassVar[int]  # where it stands in the settings' message

    guild_id: Snowflake

    def select(self, options: list[discord.SelectOption] | None = None) -> Select:
        return Select(
            custom_id=self.custom_id,
            options=options or [discord.SelectOption(label="-", value="-")],
            row=self.row,
        )


class PresetSelect(SettingMenu, key="set"):
    """New games' rule set."""

    row = 0
    field: Annotated[str, one_of("preset")] = "preset"


class TurnLimitSelect(SettingMenu, key="set"):
    """How long a turn may take."""

    row = 1
    field: Annotated[str, one_of("turn")] = "turn"


class PolicySelect(SettingMenu, key="set"):
    """What happens to a turn that runs out."""

    row = 2
    field: Annotated[str, one_of("policy")] = "policy"


class LanguageSelect(SettingMenu, key="set"):
    """The language of new games' messages."""

    row = 3
    field: Annotated[str, one_of("language")] = "language"


class SettingSwitch(ButtonControl):
    """A server setting that is a switch (``yz:set:<guild>:<field>``), on or off."""

    words: ClassVar[str]  # the button's words, before ": on" or ": off"

    guild_id: Snowflake

    def button(self, on: bool = False, label: str | None = None) -> Button:
        return Button(
            label=label or f"{self.words}: {'on' if on else 'off'}",
            style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
            custom_id=self.custom_id,
            row=4,
        )


class ThreadsSwitch(SettingSwitch, key="set"):
    """Games played in threads of their own."""

    words = "Games in threads"
    field: Annotated[str, one_of("threads")] = "threads"


class AutoRollSwitch(SettingSwitch, key="set"):
    """Each turn's first roll made for the player as the turn starts."""

    words = "First roll made for the player"
    field: Annotated[str, one_of("autoroll")] = "autoroll"

"""The lobby's buttons.

=====================================  ==========================================================
custom_id                              component
=====================================  ==========================================================
``yz:lobby:join:<game>``               Join: a seat for the clicker
``yz:lobby:leave:<game>``              Leave the lobby
``yz:lobby:start:<game>``              Start (the host)
``yz:lobby:cancel:<game>``             Cancel: the lobby closes (the host)
``yz:lobby:bot-<level>:<game>``        a computer player of a level (optimal, casual,
                                       winning) takes a seat
``yz:lobby:hints:<game>``              the game's hints on or off
``yz:lobby:unseat:<game>``             the computer seated last leaves
``yz:again:<game>``                    Play again (on a final message): a new lobby inviting
                                       the players
=====================================  ==========================================================
"""

from __future__ import annotations

from typing import Annotated

import discord

from cogs.shared.controls import Button, ButtonControl, GameButton, Snowflake, one_of


class LobbyControl(ButtonControl):
    """A button on a lobby (``yz:lobby:<action>:<game>``): each action a kind of its own."""

    live = True

    def button(
        self,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        disabled: bool = False,
    ) -> Button:
        return Button(
            label=label, style=style, custom_id=self.custom_id, row=row, disabled=disabled
        )


class JoinButton(LobbyControl, key="lobby:join"):
    """A member takes a seat."""

    game_id: Snowflake


class LeaveLobbyButton(LobbyControl, key="lobby:leave"):
    """A seated member leaves the lobby (the host: the next person hosts)."""

    game_id: Snowflake


class StartButton(LobbyControl, key="lobby:start"):
    """The host starts the game."""

    game_id: Snowflake


class CancelButton(LobbyControl, key="lobby:cancel"):
    """The host closes the lobby."""

    game_id: Snowflake


class AddComputerButton(LobbyControl, key="lobby"):
    """The host seats a computer player of a level (``yz:lobby:bot-<level>:<game>``)."""

    level: Annotated[str, one_of("bot-optimal", "bot-casual", "bot-winning")]
    game_id: Snowflake


class HintsButton(LobbyControl, key="lobby:hints"):
    """The host turns the game's hints on or off."""

    game_id: Snowflake


class UnseatButton(LobbyControl, key="lobby:unseat"):
    """The host takes the computer player seated last back out."""

    game_id: Snowflake


class PlayAgainButton(GameButton, key="again"):
    """A new lobby that invites the same players."""

"""The buttons of a final message, a leaderboard and a player's statistics.

=========================================  ======================================================
custom_id                                  component
=========================================  ======================================================
``yz:lb:<kind>:<period>:<page>:<step>``    a leaderboard's Previous / Next
``yz:share:lb:<kind>:<period>:<page>``     Share a private leaderboard
``yz:share:stats:<user>``                  Share private statistics
=========================================  ======================================================

A final message's row (``final_buttons``) is Play again (``cogs.lobby``) or, for a daily
challenge, Replay (``cogs.daily``), and each player's Analysis (``cogs.coaching``).
"""

from __future__ import annotations

from typing import Annotated, Any

import discord

from bot.i18n import Lang
from cogs.coaching.controls import AnalysisButton
from cogs.daily.controls import ReplayButton
from cogs.lobby.controls import PlayAgainButton
from cogs.shared.controls import Button, ButtonControl, Pattern, Snowflake, Word, one_of


class PageButton(ButtonControl, key="lb"):
    """Previous or Next on a leaderboard."""

    kind: Word
    period: Word
    page: Snowflake
    step: Annotated[str, one_of("prev", "next")]

    def button(self, disabled: bool = False, label: str | None = None) -> Button:
        return Button(
            label=label or ("Previous" if self.step == "prev" else "Next"),
            style=discord.ButtonStyle.secondary,
            custom_id=self.custom_id,
            disabled=disabled,
        )


class ShareButton(ButtonControl, key="share"):
    """Share on a private leaderboard or stats answer: post it for the whole channel.
    ``args`` is ``<kind>:<period>:<page>`` for a leaderboard, ``<user id>`` for stats."""

    what: Annotated[str, one_of("lb", "stats")]
    args: Annotated[str, Pattern(r"[a-z0-9]+(?::[a-z0-9]+)*")]

    def button(self, label: str = "Share") -> Button:
        return Button(
            label=label,
            emoji="\N{SPEAKING HEAD IN SILHOUETTE}",
            style=discord.ButtonStyle.secondary,
            custom_id=self.custom_id,
        )


def final_buttons(
    _: Lang, game_id: int, analysis: bool = True, daily: bool = False
) -> discord.ui.ActionRow[Any]:
    """Play again (a daily challenge: its Replay instead), and each player's Analysis."""
    buttons: list[discord.ui.Item[Any]] = [
        ReplayButton(game_id).button(_("Replay"))
        if daily
        else PlayAgainButton(game_id).button(_("Play again"), discord.ButtonStyle.success)
    ]
    if analysis:
        buttons.append(AnalysisButton(game_id).button(_("Analysis"), emoji="\N{BAR CHART}"))
    return discord.ui.ActionRow(*buttons)

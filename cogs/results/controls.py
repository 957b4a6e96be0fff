"""The buttons of a final message, a leaderboard and a player's statistics.

=====================================  ==========================================================
custom_id                              component
=====================================  ==========================================================
``yz:lb:<kind>:<period>:<page>:<step>``  a leaderboard's Previous / Next
``yz:share:lb:<kind>:<period>:<page>``, ``yz:share:stats:<user>``  Share a private answer
=====================================  ==========================================================

A final message's row (``final_buttons``) is Play again (``cogs.lobby``) or, for a daily
challenge, Replay (``cogs.daily``), and each player's Analysis (``cogs.coaching``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Lang
from cogs.coaching.controls import AnalysisButton
from cogs.daily.controls import ReplayButton
from cogs.lobby.controls import PlayAgainButton
from cogs.shared.controls import ID, Button, Control, choice


class PageButton(
    Control[Button],
    key="lb",
    fields={
        "kind": (r"[a-z]+", str),
        "period": (r"[a-z]+", str),
        "page": ID,
        "step": choice("prev", "next"),
    },
    handler="turn_page",
):
    """Previous or Next on a leaderboard."""

    def __init__(
        self,
        kind: str,
        period: str,
        page: int,
        step: str,
        disabled: bool = False,
        label: str | None = None,
    ) -> None:
        values = {"kind": kind, "period": period, "page": page, "step": step}
        button = Button(
            label=label or ("Previous" if step == "prev" else "Next"),
            style=discord.ButtonStyle.secondary,
            custom_id=self.make_id(**values),
            disabled=disabled,
        )
        super().__init__(button, **values)


class ShareButton(
    Control[Button],
    key="share",
    fields={"what": choice("lb", "stats"), "args": (r"[a-z0-9]+(?::[a-z0-9]+)*", str)},
    handler="share",
):
    """Share on a private leaderboard or stats answer: post it for the whole channel.
    ``args`` is ``<kind>:<period>:<page>`` for a leaderboard, ``<user id>`` for stats."""

    def __init__(self, what: str, args: str, label: str = "Share") -> None:
        button = Button(
            label=label,
            emoji="\N{SPEAKING HEAD IN SILHOUETTE}",
            style=discord.ButtonStyle.secondary,
            custom_id=self.make_id(what=what, args=args),
        )
        super().__init__(button, what=what, args=args)


def final_buttons(
    _: Lang, game_id: int, analysis: bool = True, daily: bool = False
) -> discord.ui.ActionRow[Any]:
    """Play again (a daily challenge: its Replay instead), and each player's Analysis."""
    buttons: list[discord.ui.Item[Any]] = [
        (
            ReplayButton(game_id, _("Replay"))
            if daily
            else PlayAgainButton(game_id, _("Play again"))
        ).item
    ]
    if analysis:
        buttons.append(AnalysisButton(game_id, _("Analysis")).item)
    return discord.ui.ActionRow(*buttons)

"""What ``/yahtzee-admin`` shows: a server's settings with a menu each, and the
confirmation of a leaderboard reset."""

from __future__ import annotations

import discord

from bot.engine import Preset
from bot.games import GuildSettings
from bot.i18n import LANGUAGE_NAMES, Lang
from bot.i18n.words import N_
from cogs.shared.controls import Controls
from cogs.shared.text import GREEN

from .controls import (
    AutoRollSwitch,
    LanguageSelect,
    PolicySelect,
    PresetSelect,
    ResetConfirmButton,
    ThreadsSwitch,
    TurnLimitSelect,
)

TURN_LABELS = {0: N_("No time limit"), 60: N_("1 minute"), 120: N_("2 minutes"),
               180: N_("3 minutes"), 300: N_("5 minutes"), 600: N_("10 minutes"),
               900: N_("15 minutes"), 1800: N_("30 minutes"), 3600: N_("1 hour")}  # fmt: skip


POLICY_LABELS = {
    "play": (N_("Play for them"), N_("The turn is played as the Optimal bot would play it")),
    "scratch": (N_("Scratch"), N_("Roll if needed, then the box worth least (often a 0)")),
    "skip-seat": (
        N_("Skip seat"),
        N_("As scratch, and after 2 timeouts in a row skip them until they rejoin"),
    ),
}


def settings_embed(_: Lang, settings: GuildSettings) -> discord.Embed:
    """A server's current settings."""
    embed = discord.Embed(title=_("Yahtzee settings for this server"), colour=GREEN)
    embed.add_field(name=_("Default preset"), value=_(settings.preset.title))
    embed.add_field(
        name=_("Turn time limit"),
        value=_(TURN_LABELS[settings.turn_seconds])
        if settings.turn_seconds in TURN_LABELS
        else f"{settings.turn_seconds} s",
    )
    embed.add_field(
        name=_("When time runs out"), value=_(POLICY_LABELS[settings.timeout_policy][0])
    )
    embed.add_field(name=_("Games in threads"), value=_("on") if settings.use_threads else _("off"))
    embed.add_field(
        name=_("First roll made for the player"),
        value=_("on (a player may choose otherwise: /yahtzee autoroll)")
        if settings.auto_roll
        else _("off (a player may choose otherwise: /yahtzee autoroll)"),
    )
    embed.add_field(
        name=_("Language"),
        value=LANGUAGE_NAMES[settings.language]
        if settings.language in LANGUAGE_NAMES
        else _("the server's language in Discord"),
    )
    embed.set_footer(
        text=_(
            "Changes apply to games started from now on (the first roll made for the "
            "player: from the next turn on, in running games too). Half-way through a "
            "timed turn the player is reminded."
        )
    )
    return embed


def settings_view(_: Lang, guild_id: int, settings: GuildSettings) -> discord.ui.View:
    """One menu per setting, and the two switches."""
    presets = [
        discord.SelectOption(
            label=_("Preset: {preset}", preset=_(p.title)),
            value=p.value,
            default=p.value == settings.preset,
        )
        for p in Preset
    ]
    limits = [
        discord.SelectOption(
            label=_("Turn limit: {limit}", limit=_(label)),
            value=str(seconds),
            default=seconds == settings.turn_seconds,
        )
        for seconds, label in TURN_LABELS.items()
    ]
    policies = [
        discord.SelectOption(
            label=_("Timeout: {policy}", policy=_(label)),
            value=key,
            description=_(text),
            default=key == settings.timeout_policy,
        )
        for key, (label, text) in POLICY_LABELS.items()
    ]
    languages = [
        discord.SelectOption(
            label=_("Language: the server's in Discord"),
            value="discord",
            default=settings.language is None,
        )
    ] + [
        discord.SelectOption(
            label=_("Language: {language}", language=name),
            value=code,
            default=code == settings.language,
        )
        for code, name in LANGUAGE_NAMES.items()
    ]
    threads = _("Games in threads: on") if settings.use_threads else _("Games in threads: off")
    autoroll = (
        _("First roll made for the player: on")
        if settings.auto_roll
        else _("First roll made for the player: off")
    )
    view = Controls()
    view.add_item(PresetSelect(guild_id).select(presets))
    view.add_item(TurnLimitSelect(guild_id).select(limits))
    view.add_item(PolicySelect(guild_id).select(policies))
    view.add_item(LanguageSelect(guild_id).select(languages))
    view.add_item(ThreadsSwitch(guild_id).button(settings.use_threads, threads))
    view.add_item(AutoRollSwitch(guild_id).button(settings.auto_roll, autoroll))
    return view


def reset_confirm_view(_: Lang, guild_id: int) -> discord.ui.View:
    """The confirmation button for a leaderboard reset."""
    view = Controls()
    view.add_item(ResetConfirmButton(guild_id).button(_("Reset the leaderboard")))
    return view

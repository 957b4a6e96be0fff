"""One handler for everything a user can get wrong or that can go wrong: a refusal becomes an
ephemeral sentence; anything unexpected is logged with a short code the user also sees."""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import RuleError
from bot.games import AnsweredElsewhere, GameService, Refusal, StoreUnavailable
from bot.i18n.words import N_
from bot.metrics import INTERACTIONS, LATE

from . import answers
from .language import private
from .place import place_of
from .text import shown_name
from .wording import said_here

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction answered too late
#: A member's click while ``answers.MEMBER_IN_FLIGHT`` of theirs are still being answered.
ONE_AT_A_TIME = N_(
    "One at a time, please: your last clicks are still being answered. Click again in a moment."
)

P = ParamSpec("P")
S = TypeVar("S")


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A link to a message."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer with an ephemeral message, whether or not the interaction was answered yet."""
    await answers.send(interaction, text, ephemeral=True)


async def _answered_elsewhere(interaction: discord.Interaction[Any]) -> bool:
    try:
        games = interaction.client.games
    except (AttributeError, RuntimeError):  # not our bot, or not set up yet
        return False
    return isinstance(games, GameService) and await games.answered_elsewhere()


async def handle_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Turn any error into a reply: never a silent 'This interaction failed'."""
    try:
        await _handle_error(interaction, error)
    finally:
        answers.finished(interaction)


async def _handle_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    original = getattr(error, "original", error)  # app_commands wrap errors
    data: dict[str, Any] = dict(interaction.data or {})
    if isinstance(original, AnsweredElsewhere) or (
        isinstance(original, (Refusal, RuleError)) and await _answered_elsewhere(interaction)
    ):
        # Discord gave this request to another process too (a deploy overlapping, two
        # sessions of a shard), which made the change and answers: say nothing here.
        INTERACTIONS.labels(answers.kind_of(interaction), "elsewhere").inc()
        log.info(
            "interaction %s (%s): handled by another process",
            interaction.id,
            data.get("custom_id") or data.get("name"),
        )
        return
    if isinstance(original, discord.NotFound) and original.code == UNKNOWN_INTERACTION:
        # The answer came after Discord's 3 seconds (an overloaded bot): nothing can be said
        # to the user any more. What the click did is saved, and the timer's repair brings
        # the board up to date; one line, not a traceback per click.
        LATE.inc()
        INTERACTIONS.labels(answers.kind_of(interaction), "late").inc()
        log.warning(
            "interaction %s (%s) in channel %s: answered after Discord's 3 s window; its "
            "change is saved and the board will be repaired",
            interaction.id,
            data.get("custom_id") or data.get("name"),
            interaction.channel_id,
        )
        return
    if _stopping(interaction, original):
        # A hard stop (``close`` without the graceful ``stop``, which waits for the clicks in
        # flight) cut the connection under a request: what was saved stays saved and the
        # restart's repair shows it; nobody can be told through the closed connection.
        log.warning(
            "interaction %s (%s) in channel %s: the bot was stopping while it was handled "
            "(%s); what it saved is kept, and the restart shows it",
            interaction.id,
            data.get("custom_id") or data.get("name"),
            interaction.channel_id,
            type(original).__name__,
        )
        return
    refused = not isinstance(original, Exception) or _is_refusal(original)
    INTERACTIONS.labels(answers.kind_of(interaction), "refused" if refused else "error").inc()
    text = _wording(interaction, original, data.get("custom_id") or data.get("name"))
    try:
        await tell(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell user about an error on interaction %s", interaction.id)
    except Exception as error:
        if not _stopping(interaction, error):
            raise
        log.warning(
            "could not tell user about an error on interaction %s: the bot was stopping",
            interaction.id,
        )


def _wording(interaction: discord.Interaction[Any], original: BaseException, what: Any) -> str:
    """What the user is told about an error (``what``: the control or command it came from),
    in their own language; the errors that are ours, or Discord's refusals, are logged here."""
    _ = private(interaction)
    if isinstance(original, Refusal):
        # where most players are not offered /yahtzee (a group DM), said by its clicks
        said = said_here(original, not place_of(interaction).can_post)
        if original.link:
            return f"{_.say(said, shown_name)}\n{jump_url(*original.link)}"
        return _.say(said, shown_name)
    elif isinstance(original, RuleError):
        return _.say(original, shown_name)
    elif isinstance(original, StoreUnavailable):  # logged where it happened, once per write
        return _(
            "Your move was not saved: the bot cannot write to its database right now (its "
            "disk is full or read-only). Nothing changed; try again in a few minutes."
        )
    elif isinstance(original, app_commands.TransformerError):
        # Discord only sends the options it offered; a modified client can send anything
        return _(
            "{value} is not one of this command's choices: pick one from the list Discord "
            "shows as you type.",
            value=repr(str(original.value)[:50]),
        )
    elif isinstance(original, app_commands.NoPrivateMessage):
        return _("Yahtzee is played in a server channel, not in direct messages.")
    elif isinstance(original, app_commands.CheckFailure):
        return _("You don't have permission to do that here.")
    elif isinstance(original, app_commands.CommandOnCooldown):
        return _("Slow down a little: try again in {seconds} s.",
                 seconds=f"{original.retry_after:.0f}")  # fmt: skip
    elif isinstance(original, discord.HTTPException) and original.status == 429:
        # discord.py retried and Discord still said "too many requests": a storm, not a bug
        log.warning(
            "interaction %s (%s): still rate limited after retries: %s",
            interaction.id,
            what,
            original,
        )
        return _(
            "Discord is slowing the bot down right now (rate limits). Whatever you did was "
            "saved; the board catches up in a few seconds."
        )
    elif isinstance(original, discord.Forbidden):  # a 403: a permission, not a bug of ours
        log.warning(
            "interaction %s (%s) in channel %s: Discord refused an action: %s",
            interaction.id,
            what,
            interaction.channel_id,
            original,
        )
        return _(
            "Discord did not let me do that in this channel: I'm missing a permission here "
            "(Send Messages, Embed Links, Attach Files, or in threads Send Messages in "
            "Threads). Ask a server admin to check my permissions; what you did so far is saved."
        )
    else:
        code = secrets.token_hex(3).upper()
        log.error(
            "unexpected error %s handling interaction %s (%s) from user %s in channel %s",
            code,
            interaction.id,
            what,
            interaction.user.id if interaction.user else None,
            interaction.channel_id,
            exc_info=original,
        )
        return _(
            "Something went wrong on our side (error {code}); nothing you did was lost. "
            "Try again in a moment, and mention the code if you report it.",
            code=code,
        )


def _stopping(interaction: discord.Interaction[Any], error: BaseException) -> bool:
    """Whether ``error`` is the bot's own connection closing under a request as it stops."""
    connection = isinstance(error, (aiohttp.ClientError, ConnectionError)) or (
        isinstance(error, RuntimeError) and "Session is closed" in str(error)
    )
    return connection and interaction.client.is_closed()


def _is_refusal(error: Exception) -> bool:
    """Whether the user was told why nothing changed (not a bug of ours)."""
    return isinstance(
        error,
        (Refusal, RuleError, StoreUnavailable, app_commands.TransformerError,
         app_commands.CheckFailure, app_commands.CommandOnCooldown, discord.HTTPException),
    )  # fmt: skip


async def run_guarded(
    interaction: discord.Interaction[Any], work: Callable[[], Awaitable[None]]
) -> None:
    """Run a click's ``work`` so that the click is acknowledged in time if the work is slow,
    waits its turn among the interactions at work, and every error reaches ``handle_error``."""
    answers.guard(interaction)
    try:
        with answers.one_member(interaction.user.id):
            async with answers.working():
                await work()
    except answers.TooManyAtOnce:
        await handle_error(interaction, Refusal(ONE_AT_A_TIME))
    except Exception as error:  # one handler for all of them
        await handle_error(interaction, error)
    else:
        INTERACTIONS.labels(answers.kind_of(interaction), "ok").inc()
    finally:
        answers.finished(interaction)


def guarded(
    handler: Callable[Concatenate[S, discord.Interaction[Any], P], Awaitable[None]],
) -> Callable[Concatenate[S, discord.Interaction[Any], P], Awaitable[None]]:
    """Run a method that answers a click so that every error reaches ``handle_error`` (the
    router guards the handlers it calls; the clicks' gate, its refusals)."""

    async def wrapper(
        self: S, interaction: discord.Interaction[Any], /, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        await run_guarded(interaction, lambda: handler(self, interaction, *args, **kwargs))

    functools.update_wrapper(wrapper, handler)
    return wrapper


async def setup(bot: commands.Bot) -> None:
    """Every slash command's error is answered by ``handle_error`` (an extension, so that
    ``bot`` never imports ``cogs``)."""
    bot.tree.on_error = handle_error  # type: ignore[method-assign]

    async def completed(interaction: discord.Interaction[Any], command: Any) -> None:
        INTERACTIONS.labels(answers.kind_of(interaction), "ok").inc()
        answers.finished(interaction)

    bot.add_listener(completed, "on_app_command_completion")

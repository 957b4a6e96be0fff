"""Every click on the bot's messages arrives here: ``Clicks.on_interaction`` reads it as a
typed control (``Router.route``), checks it against the message clicked (does it still show
that control?) and the game (is the click of the game's server and channel?), then hands it
to its handler (``Router.dispatch``): the method of a feature's cog marked
``@handles(ThatControl)``. A click nothing can route is refused politely."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.games import GameService, Refusal
from bot.i18n import ENGLISH
from bot.i18n.words import N_, Label

from . import answers
from .controls import Control
from .errors import guarded
from .language import private
from .place import place_of
from .publisher import Publisher
from .repairs import Repairs
from .router import Router

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)

#: How long the repair after a command in a token place waits for the command to be done
#: (its answer is due within Discord's 3 s, its follow-ups within the token's life).
COMMAND_PATIENCE = 60.0


class Clicks(commands.Cog):
    """The gate of every click: checked, then routed to its handler."""

    def __init__(
        self,
        bot: YahtzeeBot,
        publisher: Publisher,
        router: Router,
        repairs: Repairs | None = None,
    ) -> None:
        self.bot = bot
        self.publisher = publisher
        self.router = router  # this bot's handlers
        self.repairs = repairs  # what a click in a token place shows besides its answer

    @property
    def games(self) -> GameService:
        return self.bot.games

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction is guarded (acknowledged in time if its answer is slow), and a
        click is routed to its handler (``Router.route``) if the message still shows
        that control; a click on one it no longer shows (an old client view) is refused
        politely, as is an id none of our controls has."""
        answers.guard(interaction)
        place = place_of(interaction)
        changed = self.publisher.routes.note(interaction, place)  # its token, if need be
        if changed is not None:  # kept for a restart: which channels only tokens reach
            await self.games.servers.note_token_place(place.channel_id, place.kind.value, changed)
        click = interaction.type is discord.InteractionType.component
        if place.can_post or self.repairs is None:
            if click and interaction.message is not None:
                await self._gate(interaction)
            return
        # Where only interactions reach (a group DM), each one also shows what the game's
        # messages miss (a restart, a timer nobody saw), through its own token, once
        # answered: a click's, or a command's (which discord.py runs in a task of its own).
        game_id = None
        with self.publisher.activity.handling(place.channel_id):
            if click and interaction.message is not None:
                game_id = await self._gate(interaction)
            elif interaction.type is discord.InteractionType.application_command:
                await answers.until_finished(interaction, COMMAND_PATIENCE)
            else:
                return
        await self.repairs.at_interaction(place.channel_id, game_id)

    async def _gate(self, interaction: discord.Interaction[Any]) -> int | None:
        """Route a click, checked, to its handler or refuse it; the game it names, if any."""
        assert interaction.message is not None
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        click = self.router.route(custom_id)
        if click is None:  # not a control this bot ever made (a forged one)
            await self._refuse_unknown(interaction)
            return None
        # the metrics' label: the key kinds share (``lobby``, not ``lobby:join``), as always
        answers.routed(interaction, click.key.split(":", 1)[0])
        game_id = click.game()
        if click.turn_move and game_id is not None and interaction.message.flags.ephemeral:
            live = self.publisher.private.live_elsewhere(game_id, interaction.message.id)
            if live is not None:  # /yahtzee daily showed the private board again since
                await self._refuse_replaced(interaction, live.channel_id)
                return None
        shown = set(_controls(interaction.message.components))
        kind = data.get("component_type")
        if kind == click.component_type and (custom_id, kind) in shown:
            if game_id is not None:  # every game's click is bound to its server and channel
                try:
                    await self.games.posts.check_click(
                        game_id, interaction.guild_id, interaction.channel_id,
                        interaction.message.id,
                    )  # fmt: skip
                except Exception as error:  # answered by the guard, as a handler's
                    await self._refuse(interaction, error)
                    return None
                if await self._undo_gone(interaction, click, game_id):
                    return game_id
                if await self._over_here(interaction, click, game_id):
                    return game_id
                if await self._brought_back(interaction, click, game_id):
                    return game_id
                await self._retired_first(interaction, click, game_id)
            await self.router.dispatch(interaction, click)
            return game_id
        if kind != click.component_type or custom_id in {shown_id for shown_id, _ in shown}:
            # a button's id sent as a menu's choice (or the other way round)
            await self._refuse_unknown(interaction)
            return None
        await self._refuse_stale(interaction, game_id)
        return game_id

    async def _brought_back(
        self, interaction: discord.Interaction[Any], click: Control, game_id: int
    ) -> bool:
        """Where only clicks reach (a group DM), a turn's button on an old board (one no
        token could retire) brings the game's board back as its answer (``Repairs
        .bring_back``), unless this process is showing a move of that game now (another
        click from the channel, a timer, its computer seats: the click is refused as old,
        with a link, as on a server). Whether it did."""
        turn = click.board_turn()
        if not (click.turn_move and click.on_board) or turn is None or self.repairs is None:
            return False
        channel_id = interaction.channel_id or 0
        if not self.publisher.routes.by_token(channel_id) or interaction.message is None:
            return False
        found = await self.games.turns.old_board(game_id, interaction.message.id, turn)
        if found is None or self.publisher.activity.busy(game_id, channel_id, besides=1):
            return False
        await self.repairs.bring_back(interaction, *found)
        return True

    async def _undo_gone(
        self, interaction: discord.Interaction[Any], click: Control, game_id: int
    ) -> bool:
        """Where only clicks reach (a group DM), an Undo on a scoring's line that can no
        longer take it back (a roll came since, or the game is over, while no token could
        close it, as a restart leaves them): the line loses its Undo and keeps what it says
        (the game's story), and the clicker is told privately. Whether it did."""
        message = interaction.message
        if not click.takes_back or message is None or message.flags.ephemeral:
            return False
        if not self.publisher.routes.by_token(interaction.channel_id or 0):
            return False
        if await self.games.posts.undo_possible(game_id):
            return False  # (its handler says whose it is, or takes it back)
        await self._close_undo_here(interaction)
        return True

    @guarded
    async def _close_undo_here(self, interaction: discord.Interaction[Any]) -> None:
        await answers.edit(interaction, view=None)
        _ = private(interaction)
        await answers.send(
            interaction, _("That scoring can no longer be taken back."), ephemeral=True
        )

    async def _retired_first(
        self, interaction: discord.Interaction[Any], click: Control, game_id: int
    ) -> None:
        """Where only clicks reach (a group DM), a click on an old board's other buttons
        (Scorecard, Hint: answered privately) retires that board first, as its answer, so
        that it stops asking anyone to roll (its private answer follows)."""
        message = interaction.message
        if not click.on_board or click.turn_move or self.repairs is None:
            return
        if message is None or message.flags.ephemeral:
            return
        if not self.publisher.routes.by_token(interaction.channel_id or 0):
            return
        shown = (
            self.router.route(custom_id or "") for custom_id, _ in _controls(message.components)
        )
        turn = next(
            (c.board_turn() for c in shown if c is not None and c.game() == game_id
             and c.board_turn() is not None), None,
        )  # fmt: skip
        if turn is None:
            return  # not a board (a scoring's line, a lobby): nothing to retire
        found = await self.games.turns.old_board(game_id, message.id, turn)
        if found is None or self.publisher.activity.busy(
            game_id, interaction.channel_id or 0, besides=1
        ):
            return
        await self.repairs.retire_clicked(interaction, *found)

    async def _over_here(
        self, interaction: discord.Interaction[Any], click: Control, game_id: int
    ) -> bool:
        """Where only clicks reach (a group DM), a click on a live-looking control (a
        lobby's, a board's, an Undo) of a game that is over shows the end on the clicked
        message as its answer (``Repairs.show_over``): no token may have been left to show
        it when it came (a timer ended it while nobody clicked). Whether it did."""
        message = interaction.message
        if not click.live or self.repairs is None or message is None:
            return False
        if message.flags.ephemeral or not self.publisher.routes.by_token(
            interaction.channel_id or 0
        ):
            return False
        row = await self.games.lookups.find(game_id)
        if row is None or row.is_live or row.daily is not None:
            return False
        await self.repairs.show_over(interaction, row)
        return True

    @guarded
    async def _refuse(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        raise error

    @guarded
    async def _refuse_unknown(self, interaction: discord.Interaction[Any]) -> None:
        raise Refusal("That control is not one of mine; nothing changed.")

    @guarded
    async def _refuse_replaced(self, interaction: discord.Interaction[Any], channel: int) -> None:
        where = f"<#{channel}>"  # the channel where /yahtzee daily showed the live copy
        raise Refusal(
            "This copy of your daily challenge was replaced: use the one from /yahtzee daily "
            "in {channel}.",
            channel=where,
        )

    @guarded
    async def _refuse_stale(
        self, interaction: discord.Interaction[Any], game_id: int | None
    ) -> None:
        message = interaction.message
        if (
            game_id is not None
            and message is not None
            and (self.publisher.parked(game_id) == message.id)
        ):
            shown = await self.games.lookups.find(game_id)
            raise Refusal(
                "The last scoring was taken back ({undo}), so this turn waits: this board "
                "comes back when that scoring is made again. Nothing changed.",
                undo=Label(N_("Undo"), shown.language if shown else ENGLISH),
            )
        raise await self.games.posts.stale_click(game_id)


def _controls(components: Sequence[Any]) -> Iterator[tuple[str | None, int]]:
    """(custom_id, type) of every control a message shows: in its action rows, or at any
    depth of a Components V2 layout (a container's rows, a section's accessory)."""
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id is not None:
            yield custom_id, component.type.value
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _controls([accessory])
        yield from _controls(getattr(component, "children", None) or [])

"""A turn: holding dice, rolling, scoring, Undo, the scorecards (a click and
``/yahtzee scorecard``), ``/yahtzee board``, ``/yahtzee rules``, and a player's own
choices (``/yahtzee notify``, ``/yahtzee autoroll``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine import DEFAULT_PRESET
from bot.games import NOT_FOR_DAILY, BoardClick, GameStatus, GameView, Refusal, TurnMove, player_id
from bot.i18n.words import N_
from cogs.shared import answers
from cogs.shared.checks import member_may_post, message_id
from cogs.shared.controls import Button, handles
from cogs.shared.errors import jump_url
from cogs.shared.feature import Feature
from cogs.shared.language import channel, private, public
from cogs.shared.looks import looks_of
from cogs.shared.parts import parts_of
from cogs.shared.place import place_of

from . import looks
from .board import board_files
from .computer import ComputerPlayers
from .controls import (
    BoardButton,
    BoxSelect,
    CardSelect,
    DieButton,
    RollButton,
    RulesButton,
    ScorecardButton,
    UndoButton,
)
from .messages import BOARD_MOVED, card_message, more_buttons, moved_embed, rules_embed
from .seats import SeatsFeature
from .timers import TurnTimers

if TYPE_CHECKING:
    from bot.app import YahtzeeBot
    from bot.games import Card


def turn_move(
    interaction: discord.Interaction[Any], control: DieButton | RollButton | BoxSelect
) -> TurnMove:
    """The move a click on a turn's control asks for."""
    return TurnMove(
        control.game_id, interaction.user.id, message_id(interaction), control.turn, control.rolls
    )


#: A player's switch, as a command's choices.
ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


class TurnFeature(Feature):
    """A turn's clicks and the commands about the board."""

    @handles(DieButton)
    async def hold_die(self, interaction: discord.Interaction[Any], die: DieButton) -> None:
        """A die button."""
        board = await self.games.turns.hold(turn_move(interaction, die), die.index)
        await self.after.held(interaction, board)

    @handles(RollButton)
    async def roll_dice(self, interaction: discord.Interaction[Any], roll: RollButton) -> None:
        """The Roll button; a roll also closes the previous scorer's Undo."""
        board = await self.games.turns.roll(
            turn_move(interaction, roll), interaction.app_permissions.attach_files
        )
        await self.after.rolled(interaction, board)

    @handles(BoxSelect)
    async def score_box(
        self, interaction: discord.Interaction[Any], box: BoxSelect, value: str
    ) -> None:
        """The box menu: this message becomes the turn's summary, and the next turn is posted."""
        scored = await self.games.turns.score(turn_move(interaction, box), value)
        await self.after.scored(interaction, scored, box.turn)

    @handles(UndoButton)
    async def undo_scoring(self, interaction: discord.Interaction[Any], undo: UndoButton) -> None:
        """Undo: this message is the live board again; the next turn's message goes away."""
        click = BoardClick(undo.game_id, interaction.user.id, message_id(interaction), undo.turn)
        undone = await self.games.turns.undo(click)
        await self.after.undone(interaction, undone)

    @handles(ScorecardButton)
    async def show_scorecard(
        self, interaction: discord.Interaction[Any], button: ScorecardButton
    ) -> None:
        """The Scorecard button: the clicker's card, ephemeral."""
        game_id = button.game_id
        card = await self.games.scorecards.of_game(
            game_id,
            interaction.user.id,
            None,
            interaction.app_permissions.attach_files,
            private(interaction).code,  # only the clicker sees it
        )
        await self.send_card(interaction, card, more=await self._more(interaction, game_id))

    async def _more(self, interaction: discord.Interaction[Any], game_id: int) -> list[Button]:
        """What a private scorecard carries below it where most players cannot type
        /yahtzee (a group DM): the rules, the board again, and Leave (Rejoin for a player
        away) for a player in the game (``more_buttons``); nothing elsewhere, nor for a game
        over or a daily challenge (its player added the app)."""
        if place_of(interaction).can_post:
            return []
        row = await self.games.lookups.find(game_id)
        if row is None or not row.is_live or row.daily is not None:
            return []
        me = player_id(interaction.user.id)
        seats = row.game.seats if row.game is not None else []
        seat = next((s for s in seats if s.player_id == me), None)
        return more_buttons(private(interaction), game_id, seat)

    @handles(CardSelect)
    async def show_card_of(
        self, interaction: discord.Interaction[Any], menu: CardSelect, value: str
    ) -> None:
        """The menu under a private scorecard: that player's card, in its place."""
        game_id = menu.game_id
        try:
            member = int(value)
        except ValueError:
            raise Refusal("Pick a player from the menu.") from None
        card = await self.games.scorecards.of_game(
            game_id,
            interaction.user.id,
            member,
            interaction.app_permissions.attach_files,
            private(interaction).code,  # only the clicker sees it
        )
        more = await self._more(interaction, game_id)
        await self.send_card(interaction, card, edit=True, more=more)

    async def send_card(
        self,
        interaction: discord.Interaction[Any],
        card: Card,
        edit: bool = False,
        more: list[Button] | None = None,
    ) -> None:
        """A scorecard, only for the asker (``card_message``, with the buttons of ``more``).
        ``edit``: in place of the card shown (the menu's choice), else a new private answer."""
        message = card_message(private(interaction), card, more or [])
        if edit:
            files = message.pop("files")
            await answers.edit(interaction, attachments=files, **message)
            return
        content = message.pop("content")
        await answers.send(interaction, content, ephemeral=True, **message)

    @app_commands.command(
        name="scorecard", description="See a player's full scorecard (only you see it)"
    )
    @app_commands.describe(
        player="Whose card; default yours, or the player to move if you are watching"
    )
    async def scorecard(
        self, interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        """Any player's card as an image, ephemeral; spectators too."""
        assert interaction.channel_id is not None
        card = await self.games.scorecards.in_channel(
            interaction.channel_id,
            interaction.user.id,
            player.id if player else None,
            interaction.app_permissions.attach_files,
            private(interaction).code,  # only the asker sees it
        )
        more = await self._more(interaction, card.game_id) if card.game_id else []
        await self.send_card(interaction, card, more=more)

    @app_commands.command(
        name="board", description="Post this channel's live board again, at the bottom"
    )
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        """Re-post the lobby or the turn board and retire the old message's buttons: for
        its players; a spectator gets a copy only they see."""
        assert interaction.channel_id is not None
        row = await self.games.lookups.live_game(interaction.channel_id)
        await self._board_again(interaction, row)

    @handles(BoardButton)
    async def board_again(self, interaction: discord.Interaction[Any], button: BoardButton) -> None:
        """The Board button under a private scorecard (where most players cannot type
        /yahtzee board): the same, for the button's game."""
        row = await self.games.lookups.find(button.game_id)
        if row is None or not row.is_live:
            raise await self.games.posts.stale_click(button.game_id)
        if row.daily is not None:
            raise Refusal(NOT_FOR_DAILY)
        await self._board_again(interaction, row)

    async def _board_again(self, interaction: discord.Interaction[Any], row: GameView) -> None:
        """The game's lobby or board posted again at the bottom for one of its players (the
        old message says where it went); for anyone else, a copy only they see."""
        _ = private(interaction)
        seated = any(uid == interaction.user.id for uid, _name in row.players)
        if not seated or not member_may_post(interaction, row.thread_id is not None):
            # a spectator, or a player who may not write here: a copy only they see
            await self._private_board(interaction, row)
            return
        self.publisher.pace.check(interaction.user.id, "board", row.id)
        self.publisher.pace.used(interaction.user.id, "board", row.id)
        await answers.send(interaction, _("Here it is again, at the bottom."), ephemeral=True)
        _ = public(row)
        moved = moved_embed(_)
        if row.status == GameStatus.LOBBY:
            await self.publisher.lobbies.post_lobby(row)
            await self.publisher.lobbies.retire_lobby(row, row.board_message_id, _(BOARD_MOVED))
            return
        board = await self.games.drawing.render(row)
        old = row.board_message_id
        posted = await self.publisher.post_board(board, nonce=f"yz{row.id}m{interaction.id}"[:25])
        if posted is not None and old != row.undo_message_id:
            await self.publisher.retire(row, old, embed=moved)

    async def _private_board(self, interaction: discord.Interaction[Any], row: GameView) -> None:
        """The game's board as it is now, only for a spectator (no buttons: the board in
        the channel has them), with a link to it."""
        _ = private(interaction)
        link = ""
        message = row.board_message_id
        if message:
            link = jump_url(row.guild_id, row.board_channel_id, message)
        if row.status == GameStatus.LOBBY:
            await answers.send(
                interaction, _("The lobby is here: {link}", link=link), ephemeral=True
            )
            return
        board = await (await self.games.drawing.render(row)).drawn()
        await answers.send(
            interaction,
            _("Only you see this copy; the board is here: {link}", link=link),
            embed=self.publisher.board_embed(board),
            files=board_files(board),
            ephemeral=True,
        )

    @app_commands.command(name="rules", description="The rules, and the preset in play here")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """An ephemeral summary of the rules."""
        assert interaction.channel_id is not None
        row = await self.games.lookups.find_live(interaction.channel_id)
        await self._send_rules(interaction, row)

    @handles(RulesButton)
    async def rules_clicked(
        self, interaction: discord.Interaction[Any], button: RulesButton
    ) -> None:
        """The Rules button (a lobby's, or under a private scorecard, where most players
        cannot type /yahtzee rules): the rules of the button's game."""
        await self._send_rules(interaction, await self.games.lookups.find(button.game_id))

    async def _send_rules(
        self, interaction: discord.Interaction[Any], row: GameView | None
    ) -> None:
        """The rules, with the preset ``row`` plays by (none: the default), only for the
        asker, in their language; the Undo button named as the game's messages show it."""
        preset = row.preset if row else DEFAULT_PRESET
        shown = public(row) if row else await channel(self.games, interaction)  # its buttons
        _ = private(interaction)
        by_click = not place_of(interaction).can_post
        embed = rules_embed(_, preset, undo=shown(N_("Undo")), by_click=by_click)
        await answers.send(interaction, embed=embed, ephemeral=True)

    @app_commands.command(
        name="notify", description="Be told in a DM when your turn in a timed game is waiting"
    )
    @app_commands.describe(setting="on or off (leave it out to see your choice)")
    @app_commands.choices(setting=ON_OFF)
    async def notify(
        self, interaction: discord.Interaction[Any], setting: str | None = None
    ) -> None:
        """A player's own choice, kept for every server and game: a DM once a turn of theirs
        in a timed game has waited a minute (or half its time) without a move of theirs."""
        servers = self.games.servers
        user = interaction.user.id
        _ = private(interaction)
        if setting is not None:  # the notices in the language of the client that asked
            await servers.set_notify(user, setting == "on", _.code)
        on = await servers.notify_wanted(user)
        if on and setting is None:
            await servers.set_notice_language(user, _.code)
        what = (
            _("Turn notices are **on**: when a turn of yours in a timed game has waited a "
              "minute (or half its time, if that is sooner) without a move, I send you a DM "
              "with a link to the board. One per turn, none while you are playing. "
              "`/yahtzee notify off` stops them.")
            if on
            else _("Turn notices are **off**. `/yahtzee notify on` has me send you a DM when a "
                   "turn of yours in a timed game is waiting for you.")
        )  # fmt: skip
        await answers.send(interaction, what, ephemeral=True)

    @app_commands.command(
        name="autoroll", description="Have each of your turns start with its first roll made"
    )
    @app_commands.describe(setting="on, off, or as this server chooses (leave it out to see)")
    @app_commands.choices(
        setting=[*ON_OFF, app_commands.Choice(name="as the server chooses", value="server")]
    )
    async def autoroll(
        self, interaction: discord.Interaction[Any], setting: str | None = None
    ) -> None:
        """A player's own choice, kept for every server: a turn's first roll is never a
        decision, so it can be made for them as the turn starts (one tap less a turn)."""
        servers = self.games.servers
        user = interaction.user.id
        if setting is not None:
            await servers.set_auto_roll(user, None if setting == "server" else setting == "on")
        mine = await servers.auto_roll_choice(user)
        _ = private(interaction)
        if mine is None:
            here = (
                (await servers.server_settings(interaction.guild_id)).auto_roll
                if interaction.guild_id is not None
                else False
            )
            what = (
                _("Your turns follow each server's choice (here: **on**): with it on, a turn "
                  "starts with its first roll made for you.")
                if here
                else _("Your turns follow each server's choice (here: **off**): with it on, a "
                       "turn starts with its first roll made for you.")
            )  # fmt: skip
        elif mine:
            what = _(
                "Your turns start with their first roll made for you (**on**), in every "
                "server: one tap less a turn. The first roll is never a decision; everything "
                "after it is yours."
            )
        else:
            what = _("You make your turns' first roll yourself (**off**), in every server.")
        more = _("`/yahtzee autoroll` with a setting (on, off, as the server chooses) changes it.")
        await answers.send(interaction, f"{what}\n{more}", ephemeral=True)


async def setup(bot: YahtzeeBot) -> None:
    """The feature's extension (discord.py's entry point; loaded after ``cogs.core``)."""
    parts = parts_of(bot)
    looks_of(bot).turn = looks  # what the shared parts show of a turn
    computers = ComputerPlayers(bot, parts.after)  # registers itself: boards start it
    await bot.add_cog(TurnFeature(parts))
    await bot.add_cog(SeatsFeature(parts))
    await bot.add_cog(TurnTimers(parts, computers))

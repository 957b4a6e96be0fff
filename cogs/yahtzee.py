"""The /yahtzee commands, and the game's extension: ``setup`` loads the commands with the
clicks (``clicks.py``), the turn timer (``turn_timers.py``) and the gateway listeners
(``gateway.py``). Thin glue between Discord and the game service: rules live in bot.engine,
SQL in bot.store, pixels in bot.render."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import (
    DEFAULT_PRESET,
    FULL_HOUSE_POINTS,
    LARGE_STRAIGHT_POINTS,
    ROLLS_PER_TURN,
    ROUNDS,
    SMALL_STRAIGHT_POINTS,
    UPPER_BONUS_POINTS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_POINTS,
    Preset,
)
from bot.games import NOBODY_LEFT, GameService, GameStatus, GameView
from bot.games.leaderboards import LEADERBOARD_KINDS, PERIODS
from bot.i18n import Lang
from bot.i18n.words import N_

from .clicks import Clicks
from .computer import ComputerPlayers
from .gateway import Gateway
from .shared import (
    check_member_may_post,
    check_permissions,
    display_name,
    leaderboard_page,
    member_may_post,
    send_hint,
    send_stats,
)
from .translator import CatalogTranslator
from .turn_timers import TurnTimers
from .ui import answers
from .ui.language import channel, private, public, server
from .ui.messages import (
    BOARD_MOVED,
    board_embed,
    board_files,
    daily_board_embed,
    daily_intro,
    end_confirm_view,
    ended_embed,
    leaderboard_files,
    leaderboard_layout,
    leave_confirm_view,
    left_embed,
    moved_embed,
    moved_on_embed,
    send_card,
    shown_name,
)
from .ui.publisher import Publisher
from .ui.repairs import Repairs

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)

TIMER_TICK_SECONDS = 5
PRESET_CHOICES = [app_commands.Choice(name=f"{p.title} ({p.value})", value=p.value) for p in Preset]


def rules_text(_: Lang, preset: Preset, undo: str) -> str:
    """The rules in a few lines, with what the preset in play changes; ``undo``: the Undo
    button's label as the channel's games show it."""
    return _(
        "**Yahtzee**: {rounds} rounds; each turn roll five dice up to {rolls} times, holding "
        "any dice between rolls, then score them in one open box (0 if they don't fit).\n"
        "**Upper boxes** (Ones to Sixes) score the dice of that face; {threshold} or more "
        "earns +{bonus}.\n"
        "**Lower boxes**: Three/Four of a Kind score all five dice; Full House {full_house}; "
        "Small Straight (four in a row) {small}; Large Straight (five in a row) {large}; "
        "Yahtzee (five alike) {yahtzee}; Chance the sum.\n"
        "**Preset in play: {preset}**: {description}\n"
        "**{undo}**: after scoring, {undo} on that message takes it back until the next roll.\n"
        "Other presets: {others}. The host picks one with `/yahtzee start preset:`.",
        rounds=ROUNDS,
        rolls=ROLLS_PER_TURN,
        threshold=UPPER_BONUS_THRESHOLD,
        bonus=UPPER_BONUS_POINTS,
        full_house=FULL_HOUSE_POINTS,
        small=SMALL_STRAIGHT_POINTS,
        large=LARGE_STRAIGHT_POINTS,
        yahtzee=YAHTZEE_POINTS,
        preset=_(preset.title),
        description=_(preset.description),
        others="; ".join(f"`{p.value}`" for p in Preset if p is not preset),
        undo=undo,
    )


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
class Yahtzee(
    commands.GroupCog, group_name="yahtzee", group_description="Play Yahtzee in this channel"
):
    """Lobbies, turns, scorecards and the repair of boards after a restart."""

    def __init__(
        self,
        bot: YahtzeeBot,
        publisher: Publisher,
        repairs: Repairs,
        computers: ComputerPlayers,
    ) -> None:
        self.bot = bot
        self.publisher = publisher
        self.repairs = repairs
        self.computers = computers
        super().__init__()

    async def cog_load(self) -> None:
        self.publisher.faces.start(self.bot)  # the dice emojis, made once if missing

    async def cog_unload(self) -> None:
        self.publisher.faces.stop()
        await self.computers.stop_all()  # before discord.py closes its connections

    @property
    def games(self) -> GameService:
        return self.bot.games

    # -- slash commands --------------------------------------------------------------------

    @app_commands.command(name="start", description="Open a Yahtzee lobby in this channel")
    @app_commands.describe(preset="The rule set; default official (Hasbro rules)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def start(
        self, interaction: discord.Interaction[Any], preset: app_commands.Choice[str] | None = None
    ) -> None:
        """Open a lobby; a second lobby in a busy channel is refused with a link."""
        assert interaction.channel_id is not None
        await check_permissions(self.games, interaction)
        check_member_may_post(interaction)  # the lobby is posted for the member
        self.publisher.pace.check(interaction.user.id, "start", interaction.channel_id)
        row = await self.games.lobby.open_lobby(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            display_name(interaction.user),
            preset.value if preset else None,
            server(interaction),  # the server's own choice, if it made one, comes first
        )
        await self.publisher.answer_with_lobby(interaction, row)
        self.publisher.pace.used(interaction.user.id, "start", interaction.channel_id)

    @app_commands.command(
        name="daily", description="Today's challenge: the same dice for everyone, one try a day"
    )
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        """Start the caller's try at today's challenge in this channel."""
        assert interaction.channel_id is not None
        await check_permissions(self.games, interaction)
        check_member_may_post(interaction)  # its result is posted here for the member
        _ = private(interaction)  # a private board: in the player's own language
        board = await self.games.daily.start_daily(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            display_name(interaction.user),
            interaction.app_permissions.attach_files,
            _.code,
        )
        await self.publisher.show_privately(
            interaction, board, daily_intro(_, board.row.daily or "")
        )

    @app_commands.command(name="daily-board", description="Today's daily challenge scores")
    @app_commands.describe(everywhere="Every server's players, not only this server's")
    async def daily_board(
        self, interaction: discord.Interaction[Any], everywhere: bool = False
    ) -> None:
        """Today's best tries, on this server or everywhere (only for you)."""
        entries = await self.games.daily.daily_board(interaction.guild_id, everywhere)
        today = self.games.daily.today()
        await answers.send(
            interaction,
            embed=daily_board_embed(private(interaction), entries, today, everywhere),
            ephemeral=True,
        )

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
        await send_card(interaction, card)

    @app_commands.command(name="end", description="End this channel's game (host or Manage Server)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Ask for confirmation, then end the game as abandoned."""
        assert interaction.channel_id is not None
        row = await self.games.servers.check_can_end(
            interaction.channel_id, interaction.user.id, interaction.permissions.manage_guild
        )
        _ = private(interaction)
        await answers.send(
            interaction,
            _("End this game for everyone? It is kept as abandoned and counts for nobody.")
            if row.status == GameStatus.ACTIVE
            else _("End this lobby for everyone? It is kept as abandoned and counts for nobody."),
            view=end_confirm_view(_, row.id),
            ephemeral=True,
        )

    @app_commands.command(name="rules", description="The rules, and the preset in play here")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """An ephemeral summary of the rules."""
        assert interaction.channel_id is not None
        row = await self.games.lookups.find_live(interaction.channel_id)
        preset = row.preset if row else DEFAULT_PRESET
        shown = public(row) if row else await channel(self.games, interaction)  # its buttons
        _ = private(interaction)
        embed = discord.Embed(
            title=_("Yahtzee rules"),
            description=rules_text(_, preset, undo=shown(N_("Undo"))),
            colour=0x24593B,
        )
        await answers.send(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="leave", description="Leave this channel's game; the others play on")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the lobby or the running game."""
        assert interaction.channel_id is not None
        before = await self.games.turns.game_to_leave(interaction.channel_id, interaction.user.id)
        _ = private(interaction)
        if before.daily is not None:  # the day's only try: asked first, as /yahtzee end does
            until = int(self.games.daily.next_day_at().timestamp())
            await answers.send(
                interaction,
                _(
                    "Leave your daily challenge? It still counts as today's try: the next "
                    "one starts <t:{until}:R>.",
                    until=until,
                ),
                view=leave_confirm_view(_, before.id),
                ephemeral=True,
            )
            return
        board = await self.games.turns.leave_game(interaction.channel_id, interaction.user.id)
        row = board.row
        await answers.send(interaction, _("You left the game."), ephemeral=True)
        _ = public(row)
        publisher = self.publisher
        if row.status in (GameStatus.LOBBY, GameStatus.CANCELLED):
            if before.board_message_id:
                await publisher.edit_lobby(row, before.board_message_id)
            return
        name = shown_name(display_name(interaction.user))
        if row.status == GameStatus.ACTIVE:
            await publisher.close_undo(before)  # a leaving takes every Undo offer away
            if (
                board.game is not None
                and before.board_message_id is not None
                and (before.require_game().current_player_id == board.game.current_player_id)
            ):  # not the leaver's turn: the board shows the seat gone, nobody is pinged
                await publisher.edit_board(before.board_message_id, board)
                return
            await publisher.retire(
                row.board_channel_id, before.board_message_id, embed=left_embed(_, name)
            )
            await publisher.post_board(board)
        elif row.status == GameStatus.FINISHED:
            await publisher.retire(
                row.board_channel_id, before.board_message_id, embed=moved_on_embed(_, True)
            )
            await publisher.close_undo(before)
            await publisher.post_final(row)
        else:
            await publisher.turn_over(row.id, before)
            await publisher.forget(row.id, row.board_channel_id)
            await publisher.retire(
                row.board_channel_id,
                before.board_message_id,
                embed=ended_embed(_, _("{name} left. {reason}", name=name, reason=_(NOBODY_LEFT))),
            )
            await publisher.close_undo(before)
            await publisher.archive(row)

    @app_commands.command(
        name="hint", description="The best moves for your dice now (only you see it)"
    )
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """The three best choices with their expected final scores."""
        assert interaction.channel_id is not None
        game_id = await self.games.coaching.game_to_hint(
            interaction.channel_id, interaction.user.id
        )
        await send_hint(self.games, interaction, game_id)

    @app_commands.command(name="leaderboard", description="This server's Yahtzee leaderboard")
    @app_commands.rename(kind="board")  # what players see is still "board"
    @app_commands.describe(kind="What to rank by (default: high scores)", period="Over which time")
    @app_commands.choices(
        kind=[
            app_commands.Choice(name=title, value=key) for key, title in LEADERBOARD_KINDS.items()
        ],
        period=[app_commands.Choice(name=title, value=key) for key, title in PERIODS.items()],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        kind: app_commands.Choice[str] | None = None,
        period: app_commands.Choice[str] | None = None,
    ) -> None:
        """A page of a leaderboard as an image, with the caller's own rank under it."""
        _ = private(interaction)
        page = await leaderboard_page(
            self.bot.games.leaderboards,
            interaction,
            kind.value if kind else "high",
            period.value if period else "all",
            None,  # the asker's own page
            _,
        )
        picture = interaction.app_permissions.attach_files
        await answers.send(
            interaction,
            view=leaderboard_layout(_, page, picture),
            files=leaderboard_files(page, picture),
            ephemeral=True,  # Share posts it for the channel
        )

    @app_commands.command(name="stats", description="A player's Yahtzee statistics on this server")
    @app_commands.describe(player="Whose statistics (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        """Games, wins, averages and charts."""
        assert interaction.guild_id is not None
        who = player or interaction.user
        await send_stats(self.games, interaction, who.id, display_name(who), private_answer=True)

    @app_commands.command(
        name="board", description="Post this channel's live board again, at the bottom"
    )
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        """Re-post the lobby or the turn board and retire the old message's buttons: for
        its players; a spectator gets a copy only they see."""
        assert interaction.channel_id is not None
        row = await self.games.lookups.live_game(interaction.channel_id)
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
            await self.publisher.post_lobby(row)
            await self.publisher.retire_lobby(row, row.board_message_id, _(BOARD_MOVED))
            return
        board = await self.games.drawing.render(row)
        old = row.board_message_id
        posted = await self.publisher.post_board(board, nonce=f"yz{row.id}m{interaction.id}"[:25])
        if posted is not None and old != row.undo_message_id:
            await self.publisher.retire(row.board_channel_id, old, embed=moved)

    async def _private_board(self, interaction: discord.Interaction[Any], row: GameView) -> None:
        """The game's board as it is now, only for a spectator (no buttons: the board in
        the channel has them), with a link to it."""
        _ = private(interaction)
        link = ""
        message = row.board_message_id
        if message:
            link = f"https://discord.com/channels/{row.guild_id}/{row.board_channel_id}/{message}"
        if row.status == GameStatus.LOBBY:
            await answers.send(
                interaction, _("The lobby is here: {link}", link=link), ephemeral=True
            )
            return
        board = await (await self.games.drawing.render(row)).drawn()
        await answers.send(
            interaction,
            _("Only you see this copy; the board is here: {link}", link=link),
            embed=board_embed(board, self.publisher.faces),
            files=board_files(board),
            ephemeral=True,
        )

    @app_commands.command(
        name="notify", description="Be told in a DM when your turn in a timed game is waiting"
    )
    @app_commands.describe(setting="on or off (leave it out to see your choice)")
    @app_commands.choices(
        setting=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
        ]
    )
    async def notify(
        self, interaction: discord.Interaction[Any], setting: str | None = None
    ) -> None:
        """A player's own choice, kept for every server and game: a DM once a turn of theirs
        in a timed game has waited a minute (or half its time) without a move of theirs."""
        servers = self.games.servers
        user = interaction.user.id
        if setting is not None:
            await servers.set_notify(user, setting == "on")
        on = await servers.notify_wanted(user)
        _ = private(interaction)
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
        setting=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
            app_commands.Choice(name="as the server chooses", value="server"),
        ]
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

    @app_commands.command(
        name="rejoin", description="Take your seat back after being skipped as away"
    )
    async def rejoin(self, interaction: discord.Interaction[Any]) -> None:
        """An away player comes back from their next turn."""
        assert interaction.channel_id is not None
        row = await self.games.turns.rejoin(interaction.channel_id, interaction.user.id)
        _ = private(interaction)
        await answers.send(
            interaction, _("Welcome back: you play again from your next turn."), ephemeral=True
        )
        await self.repairs.publish(row.id)

    @app_commands.command(
        name="kick", description="Remove an away player from the game (host or Manage Server)"
    )
    @app_commands.describe(player="The away player to remove")
    async def kick(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        """The host or an admin removes an away player; the others play on."""
        assert interaction.channel_id is not None
        board = await self.games.turns.kick(
            interaction.channel_id,
            interaction.user.id,
            player.id,
            interaction.permissions.manage_guild,
        )
        _ = private(interaction)
        await answers.send(
            interaction,
            _("{name} was removed from the game.", name=shown_name(display_name(player))),
            ephemeral=True,
        )
        await self.repairs.publish(board.row.id)


async def setup(bot: YahtzeeBot) -> None:
    """The game's extension (discord.py's entry point): the /yahtzee commands, the clicks,
    the turn timer and the gateway listeners, sharing one publisher, one repairer and one
    set of computer players."""
    computers = ComputerPlayers(bot)
    publisher = Publisher(bot, computers.start)
    repairs = Repairs(bot, publisher, computers.start)
    computers.publisher = publisher
    await bot.tree.set_translator(CatalogTranslator())  # the commands in the user's language
    await bot.add_cog(Yahtzee(bot, publisher, repairs, computers))
    await bot.add_cog(Clicks(bot, publisher))
    await bot.add_cog(TurnTimers(bot, publisher, repairs, computers))
    await bot.add_cog(Gateway(bot, repairs, computers))

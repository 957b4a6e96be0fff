"""The /yahtzee commands and every click on the bot's messages: thin glue between Discord
and the game service. Rules live in bot.engine, SQL in bot.store, pixels in bot.render."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

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
from bot.games import (
    NOBODY_LEFT,
    Board,
    ComputerDue,
    Expired,
    GameService,
    Outcome,
    Pinged,
    Refusal,
    TimedOut,
)
from bot.leaderboard import LEADERBOARD_KINDS, PERIODS
from bot.store import GameRow, GameStatus

from . import answers
from .components import dispatch, route
from .computer import ComputerPlayers
from .errors import guarded, tell
from .messages import (
    STATS_FILE,
    daily_board_embed,
    daily_intro,
    end_confirm_view,
    ended_embed,
    hint_text,
    invitation,
    leaderboard_embed,
    leaderboard_files,
    leaderboard_view,
    left_embed,
    lobby_embed,
    moved_on_embed,
    png,
    replay_text,
    report_text,
    send_card,
    share_view,
    shown_name,
    stats_embed,
    summary_embed,
    undo_view,
)
from .publisher import Publisher

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)

TIMER_TICK_SECONDS = 5
PRESET_CHOICES = [app_commands.Choice(name=f"{p.title} ({p.value})", value=p.value) for p in Preset]


# What the bot needs in a game's channel to post boards there, as (attribute, name shown).
# (Without Attach Files a game is played with its scorecard as text instead of pictures.)
NEEDED_HERE = (
    ("view_channel", "View Channel"),
    ("embed_links", "Embed Links"),
)
NEEDED_FOR_THREADS = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)


def missing_permissions(interaction: discord.Interaction[Any], threads: bool) -> list[str]:
    """The permissions the bot lacks to play a game where ``interaction`` came from (an
    interaction's own answer needs none; the boards posted after it do)."""
    allowed = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    send = ("send_messages_in_threads", "Send Messages in Threads") if in_thread else (
        "send_messages", "Send Messages")  # fmt: skip
    needed: tuple[tuple[str, str], ...] = NEEDED_HERE[:1] + (send,) + NEEDED_HERE[1:]
    if threads and not in_thread:
        needed += NEEDED_FOR_THREADS
    return [name for attribute, name in needed if not getattr(allowed, attribute)]


def permissions_refusal(missing: list[str]) -> Refusal:
    """One plain sentence naming what a server admin has to grant."""
    names = ", ".join(missing[:-1]) + (" and " if len(missing) > 1 else "") + missing[-1]
    which = "permission" if len(missing) == 1 else "permissions"
    return Refusal(
        f"I can't run a game in this channel: I'm missing the {names} {which} here. "
        "Ask a server admin to give me "
        f"{'it' if len(missing) == 1 else 'them'}, or play in another channel."
    )


def display_name(user: discord.abc.User) -> str:
    """The name a player is shown by: their server nickname or display name."""
    return user.display_name


def rules_text(preset: Preset) -> str:
    """The rules in a few lines, with what the preset in play changes."""
    return (
        f"**Yahtzee**: {ROUNDS} rounds; each turn roll five dice up to {ROLLS_PER_TURN} times, "
        "holding any dice between rolls, then score them in one open box (0 if they don't fit).\n"
        "**Upper boxes** (Ones to Sixes) score the dice of that face; "
        f"{UPPER_BONUS_THRESHOLD} or more earns +{UPPER_BONUS_POINTS}.\n"
        "**Lower boxes**: Three/Four of a Kind score all five dice; "
        f"Full House {FULL_HOUSE_POINTS}; Small Straight (four in a row) "
        f"{SMALL_STRAIGHT_POINTS}; Large Straight (five in a row) {LARGE_STRAIGHT_POINTS}; "
        f"Yahtzee (five alike) {YAHTZEE_POINTS}; Chance the sum.\n"
        f"**Preset in play: {preset.title}**: {preset.description}\n"
        "**Undo**: after scoring, Undo on that message takes it back until the next roll.\n"
        "Other presets: "
        + "; ".join(f"`{p.value}`" for p in Preset if p is not preset)
        + ". The host picks one with `/yahtzee start preset:`."
    )


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
class Yahtzee(
    commands.GroupCog, group_name="yahtzee", group_description="Play Yahtzee in this channel"
):
    """Lobbies, turns, scorecards and the repair of boards after a restart."""

    def __init__(self, bot: YahtzeeBot) -> None:
        self.bot = bot
        self.computers = ComputerPlayers(bot)
        self.publisher = Publisher(bot, self.computers.start)
        self.computers.publisher = self.publisher
        super().__init__()

    async def cog_load(self) -> None:
        self.timers.start()

    async def cog_unload(self) -> None:
        self.timers.cancel()
        await self.computers.stop_all()  # before discord.py closes its connections

    # -- timers ------------------------------------------------------------------------------

    @tasks.loop(seconds=TIMER_TICK_SECONDS)
    async def timers(self) -> None:
        """Every few seconds: act on lobbies, turns and games whose time is up."""
        try:
            await self.tick()
        except Exception:
            log.exception("the timer tick failed; trying again at the next one")

    @timers.before_loop
    async def _before_timers(self) -> None:
        await self.bot.wait_until_ready()

    async def tick(self) -> int:
        """Act on every game whose timer is due, and repair the boards that a failed post
        or answer left behind; returns how many games were acted on."""
        acted = 0
        for row in await self.games.timers.boards_behind(self.bot.owns):
            async with self.publisher.repairing:
                acted += await self.publisher.repair_one(row)
        for game_id in await self.games.timers.due(self.bot.owns):
            outcome = await self.games.timers.act(game_id)
            if outcome is None:
                continue
            acted += 1
            try:
                await self._apply(outcome)
            except discord.HTTPException:
                log.exception("game %s: could not show a timer's outcome; repairing later", game_id)
        return acted

    async def _apply(self, outcome: Outcome) -> None:
        publisher = self.publisher
        if isinstance(outcome, ComputerDue):
            log.warning("game %s: a computer's turn stalled; starting it again", outcome.row.id)
            self.computers.start(outcome.row.id)
        elif isinstance(outcome, Pinged):
            await publisher.remind(outcome.row, outcome.player_id, outcome.seconds_left)
        elif isinstance(outcome, TimedOut):
            scored = outcome.scored
            row = scored.board.row
            # The database still names the board of the turn that ran out: it becomes the summary.
            await publisher.retire(
                row.board_channel_id,
                row.board_message_id,
                embed=summary_embed(scored, True, outcome.away),
            )
            await publisher.close_undo(row)
            if scored.finished:
                await publisher.post_final(row, scored.final_image)
            elif outcome.abandoned:
                await publisher.turn_over(row.id, row)
                await publisher.channel(row.board_channel_id).send(
                    embed=ended_embed(f"Everyone is away. {NOBODY_LEFT}")
                )
            else:
                await publisher.post_board(scored.board)
        elif isinstance(outcome, Expired):
            row = outcome.row
            await publisher.turn_over(row.id, row)
            if row.status == GameStatus.CANCELLED:
                embed = lobby_embed(row)
                embed.description = outcome.reason
                await publisher.retire(row.channel_id, row.board_message_id, embed=embed)
            else:
                await publisher.retire(
                    row.board_channel_id, row.board_message_id, embed=ended_embed(outcome.reason)
                )
                await publisher.retire(row.board_channel_id, row.undo_message_id)

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
        await self._check_permissions(interaction)
        row = await self.games.lobby.open_lobby(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            display_name(interaction.user),
            preset.value if preset else None,
        )
        await self.publisher.answer_with_lobby(interaction, row)

    @app_commands.command(
        name="daily", description="Today's challenge: the same dice for everyone, one try a day"
    )
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        """Start the caller's try at today's challenge in this channel."""
        assert interaction.channel_id is not None
        await self._check_permissions(interaction)
        board = await self.games.daily.start_daily(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            display_name(interaction.user),
            interaction.app_permissions.attach_files,
        )
        await self.publisher.show_privately(interaction, board, daily_intro(board.row.daily or ""))

    @app_commands.command(name="daily-board", description="Today's daily challenge scores")
    @app_commands.describe(everywhere="Every server's players, not only this server's")
    async def daily_board(
        self, interaction: discord.Interaction[Any], everywhere: bool = False
    ) -> None:
        """Today's best tries, on this server or everywhere (only for you)."""
        entries = await self.games.daily.daily_board(interaction.guild_id, everywhere)
        await answers.send(
            interaction,
            embed=daily_board_embed(entries, self.games.daily.today(), everywhere),
            ephemeral=True,
        )

    @guarded
    async def on_replay(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Replay button of a finished daily challenge: its turns as text (private)."""
        turns = await self.games.daily.daily_replay(game_id, interaction.user.id)
        text = replay_text(turns)
        await answers.send(interaction, text[:2000], ephemeral=True)

    async def _check_permissions(self, interaction: discord.Interaction[Any]) -> None:
        """Refuse, naming them, if the bot lacks what it needs to post this game's boards."""
        server = await self.games.servers.server_settings(interaction.guild_id or 0)
        missing = missing_permissions(interaction, server.use_threads)
        if missing:
            raise permissions_refusal(missing)

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
        card = await self.games.tracking.scorecard(
            interaction.channel_id,
            interaction.user.id,
            player.id if player else None,
            interaction.app_permissions.attach_files,
        )
        await send_card(interaction, card)

    @app_commands.command(name="end", description="End this channel's game (host or Manage Server)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Ask for confirmation, then end the game as abandoned."""
        assert interaction.channel_id is not None
        row = await self.games.servers.check_can_end(
            interaction.channel_id, interaction.user.id, interaction.permissions.manage_guild
        )
        what = "game" if row.status == GameStatus.ACTIVE else "lobby"
        await answers.send(
            interaction,
            f"End this {what} for everyone? It is kept as abandoned and counts for nobody.",
            view=end_confirm_view(row.id),
            ephemeral=True,
        )

    @app_commands.command(name="rules", description="The rules, and the preset in play here")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """An ephemeral summary of the rules."""
        assert interaction.channel_id is not None
        row = await self.games.tracking.find_live(interaction.channel_id)
        preset = Preset(row.preset) if row else DEFAULT_PRESET
        embed = discord.Embed(
            title="Yahtzee rules", description=rules_text(preset), colour=0x24593B
        )
        await answers.send(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="leave", description="Leave this channel's game; the others play on")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the lobby or the running game."""
        assert interaction.channel_id is not None
        before = await self.games.turns.game_to_leave(interaction.channel_id, interaction.user.id)
        board = await self.games.turns.leave_game(interaction.channel_id, interaction.user.id)
        row = board.row
        if row.daily is not None:  # a private try: nothing in the channel to change
            await answers.send(
                interaction,
                "You left your daily challenge; it counts as today's try.",
                ephemeral=True,
            )
            return
        await answers.send(interaction, "You left the game.", ephemeral=True)
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
                and (
                    self.games.core.game_of(before).current_player_id
                    == board.game.current_player_id
                )
            ):  # not the leaver's turn: the board shows the seat gone, nobody is pinged
                await publisher.edit_board(before.board_message_id, board)
                return
            await publisher.retire(
                row.board_channel_id, before.board_message_id, embed=left_embed(name)
            )
            await publisher.post_board(board)
        elif row.status == GameStatus.FINISHED:
            await publisher.retire(
                row.board_channel_id, before.board_message_id, embed=moved_on_embed(True)
            )
            await publisher.close_undo(before)
            await publisher.post_final(row)
        else:
            await publisher.turn_over(row.id, before)
            await publisher.retire(
                row.board_channel_id,
                before.board_message_id,
                embed=ended_embed(f"{name} left. {NOBODY_LEFT}"),
            )
            await publisher.close_undo(before)

    @app_commands.command(
        name="hint", description="The best moves for your dice now (only you see it)"
    )
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """The three best choices with their expected final scores."""
        assert interaction.channel_id is not None
        row = await self.games.tracking.live_game(interaction.channel_id)
        await self._send_hint(interaction, row.id)

    async def _send_hint(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        choices = await self.games.coaching.hint(game_id, interaction.user.id)
        to_win = await self.games.coaching.win_hint(game_id, choices[0]) if choices else None
        row = await self.games.tracking.find(game_id)
        assert row is not None
        off = to_win is None and await self.games.coaching.to_win_off(game_id)
        text = hint_text(choices, self.games.core.game_of(row), to_win, to_win_off=off)
        await answers.send(interaction, text, ephemeral=True)

    @guarded
    async def on_hint(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Hint button."""
        await self._send_hint(interaction, game_id)

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
        assert interaction.guild_id is not None
        page = await self.bot.leaderboards.page(
            interaction.guild_id,
            kind.value if kind else "high",
            period.value if period else "all",
            None,  # the asker's own page
            interaction.user.id,
            display_name(interaction.user),
        )
        picture = interaction.app_permissions.attach_files
        await answers.send(
            interaction,
            embed=leaderboard_embed(page, picture),
            files=leaderboard_files(page, picture),
            view=leaderboard_view(page),
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
        await self._send_stats(interaction, who.id, display_name(who), private=True)

    async def _send_stats(
        self, interaction: discord.Interaction[Any], user_id: int, name: str, private: bool
    ) -> None:
        assert interaction.guild_id is not None
        stats = await self.bot.leaderboards.stats(interaction.guild_id, user_id, name)
        if not interaction.app_permissions.attach_files:  # the figures are in the embed
            stats = replace(stats, image=None)
        files = [] if stats.image is None else [png(stats.image, STATS_FILE)]
        await answers.send(
            interaction,
            content=None if private else f"Shared by {interaction.user.mention}",
            embed=stats_embed(name, stats),
            files=files,
            view=share_view("stats", str(user_id)) if private else discord.utils.MISSING,
            ephemeral=private,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="board", description="Post this channel's live board again, at the bottom"
    )
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        """Re-post the lobby or the turn board and retire the old message's buttons."""
        assert interaction.channel_id is not None
        row = await self.games.tracking.live_game(interaction.channel_id)
        await answers.send(interaction, "Here it is again, at the bottom.", ephemeral=True)
        moved = ended_embed("This board moved to the bottom of the channel.")
        moved.title = "Yahtzee: board moved"
        if row.status == GameStatus.LOBBY:
            await self.publisher.post_lobby(row)
            await self.publisher.retire(row.channel_id, row.board_message_id, embed=moved)
            return
        board = await self.games.tracking.render(row)
        old = row.board_message_id
        posted = await self.publisher.post_board(board, nonce=f"yz{row.id}m{interaction.id}"[:25])
        if posted is not None and old != row.undo_message_id:
            await self.publisher.retire(row.board_channel_id, old, embed=moved)

    @app_commands.command(
        name="rejoin", description="Take your seat back after being skipped as away"
    )
    async def rejoin(self, interaction: discord.Interaction[Any]) -> None:
        """An away player comes back from their next turn."""
        assert interaction.channel_id is not None
        row = await self.games.turns.rejoin(interaction.channel_id, interaction.user.id)
        await answers.send(
            interaction, "Welcome back: you play again from your next turn.", ephemeral=True
        )
        await self.publisher.publish(row.id)

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
        await answers.send(
            interaction,
            f"{shown_name(display_name(player))} was removed from the game.",
            ephemeral=True,
        )
        await self.publisher.publish(board.row.id)

    # -- clicks ------------------------------------------------------------------------------

    @guarded
    async def on_share(self, interaction: discord.Interaction[Any], what: str, args: str) -> None:
        """Share on a private leaderboard or stats answer: the same, for the channel."""
        assert interaction.guild_id is not None
        parts = tuple(args.split(":"))
        if what == "stats":
            user_id = int(parts[0])
            name = display_name(interaction.user) if user_id == interaction.user.id else (
                await self.bot.leaderboards.name(interaction.guild_id, user_id) or "a player"
            )  # fmt: skip
            await self._send_stats(interaction, user_id, name, private=False)
            return
        kind, period, number = (parts + ("", "", ""))[:3]
        if kind not in LEADERBOARD_KINDS or period not in PERIODS or not number.isdigit():
            raise Refusal("That leaderboard does not exist; use /yahtzee leaderboard.")
        page = await self.bot.leaderboards.page(
            interaction.guild_id, kind, period, int(number), interaction.user.id,
            display_name(interaction.user),
        )  # fmt: skip
        picture = interaction.app_permissions.attach_files
        await answers.send(
            interaction,
            f"Shared by {interaction.user.mention}",
            embed=leaderboard_embed(page, picture),
            files=leaderboard_files(page, picture),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @guarded
    async def on_page(
        self, interaction: discord.Interaction[Any], kind: str, period: str, page: int, step: str
    ) -> None:
        """Previous or Next on a leaderboard: the message shows the other page."""
        assert interaction.guild_id is not None
        shown = await self.bot.leaderboards.page(
            interaction.guild_id,
            kind,
            period,
            page - 1 if step == "prev" else page + 1,
            interaction.user.id,
            display_name(interaction.user),
        )
        picture = interaction.app_permissions.attach_files
        await answers.edit(
            interaction,
            embed=leaderboard_embed(shown, picture),
            attachments=leaderboard_files(shown, picture),
            view=leaderboard_view(shown),
        )

    @guarded
    async def on_lobby(
        self, interaction: discord.Interaction[Any], action: str, game_id: int
    ) -> None:
        """Join, Leave, Start or Cancel."""
        user = interaction.user
        if action == "start":
            await self._check_permissions(interaction)
            pictures = interaction.app_permissions.attach_files
            board = await self.games.lobby.begin(game_id, user.id, pictures)
            await answers.edit(interaction, embed=lobby_embed(board.row), view=None)
            await self._launch(interaction, board, interaction.message)
            return
        if action == "unseat":
            row = await self.games.lobby.remove_bot(game_id, user.id)
        elif action in ("bot-optimal", "bot-casual", "bot-winning"):
            row = await self.games.lobby.add_bot(game_id, user.id, action.removeprefix("bot-"))
        elif action == "hints":
            row = await self.games.lobby.toggle_hints(game_id, user.id)
        elif action == "join":
            row = await self.games.lobby.join(game_id, user.id, display_name(user))
        elif action == "leave":
            row = await self.games.lobby.leave_lobby(game_id, user.id)
        else:
            row = await self.games.lobby.cancel(game_id, user.id)
        await self.publisher.show_lobby(interaction, row)

    async def _launch(
        self,
        interaction: discord.Interaction[Any],
        board: Board,
        lobby: discord.Message | None,
    ) -> None:
        """Post a game's first board (in a thread of ``lobby`` in thread mode); if Discord
        refuses it, the game ends counting for nobody and the user is told why."""
        game_id = board.row.id
        server = await self.games.servers.server_settings(interaction.guild_id or 0)
        try:
            if server.use_threads and lobby is not None:
                board = await self.publisher.move_to_thread(lobby, board)
            await self.publisher.post_board(board)
        except discord.Forbidden as exc:
            # a channel overwrite the interaction's permissions did not show: the game
            # cannot be seen, so it must not be played on by the timer
            log.warning("game %s: its first board could not be posted: %s", game_id, exc)
            row = await self.games.servers.unreachable(game_id, "first board refused (403)")
            if row is not None and lobby is not None:
                await self.publisher.retire(
                    row.channel_id,
                    lobby.id,
                    embed=ended_embed(
                        "Discord did not let me post the board in this channel (missing "
                        "permissions), so the game did not start and counts for nobody. "
                        "Ask a server admin to check my permissions here."
                    ),
                )
            await tell(
                interaction,
                "The game could not start: I'm not allowed to post its board here. "
                "Ask a server admin to check my permissions.",
            )

    @guarded
    async def on_hold(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, rolls: int, index: int
    ) -> None:
        """A die button."""
        board = await self.games.turns.hold(
            game_id, interaction.user.id, message_id(interaction), turn, rolls, index
        )
        await self.publisher.show_controls(interaction, board)

    @guarded
    async def on_roll(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, rolls: int
    ) -> None:
        """The Roll button; a roll also closes the previous scorer's Undo."""
        board = await self.games.turns.roll(
            game_id, interaction.user.id, message_id(interaction), turn, rolls,
            interaction.app_permissions.attach_files,
        )  # fmt: skip
        await self.publisher.show(interaction, board)
        if board.retire_undo_message_id != message_id(interaction):  # not this very board
            await self.publisher.retire(board.row.board_channel_id, board.retire_undo_message_id)

    @guarded
    async def on_score(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, rolls: int, value: str
    ) -> None:
        """The box menu: this message becomes the turn's summary, and the next turn is posted."""
        scored = await self.games.turns.score(
            game_id, interaction.user.id, message_id(interaction), turn, rolls, value
        )
        row = scored.board.row
        if row.daily is not None:
            await self.publisher.scored_privately(interaction, scored)
            return
        await self.publisher.unarchiving(
            row.board_channel_id,
            lambda: answers.edit(
                interaction,
                content=None,
                embed=summary_embed(scored),
                attachments=[],
                view=None if scored.finished else undo_view(game_id, turn),
            ),
        )
        if scored.finished:
            await self.publisher.post_final(row, scored.final_image)
            return
        await self.publisher.scored(game_id, message_id(interaction))
        await self.publisher.post_board(scored.board)

    @guarded
    async def on_undo(self, interaction: discord.Interaction[Any], game_id: int, turn: int) -> None:
        """Undo: this message is the live board again; the next turn's message goes away."""
        undone = await self.games.turns.undo(
            game_id, interaction.user.id, message_id(interaction), turn
        )
        await self.publisher.show(interaction, undone.board)
        # The undone turn (the next player's) is over: its half-time reminder goes.
        await self.publisher.turn_over(game_id, undone.board.row)
        # The next turn's board waits, without controls, to be that turn's board again.
        await self.publisher.park(
            game_id,
            undone.board.row.board_channel_id,
            undone.retire_message_id,
            undone.retire_turn,  # known also after a restart, unlike what was pinged
        )

    @guarded
    async def on_scorecard(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Scorecard button: the clicker's card, ephemeral."""
        card = await self.games.tracking.scorecard_of(
            game_id, interaction.user.id, None, interaction.app_permissions.attach_files
        )
        await send_card(interaction, card)

    @guarded
    async def on_analysis(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Analysis button: the clicker's report card, only for them."""
        report = await self.games.coaching.report(game_id, interaction.user.id)
        await answers.send(interaction, report_text(report), ephemeral=True)

    @guarded
    async def on_play_again(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Play again: a lobby hosted by the clicker that invites the other players (one
        ping); they take a seat with Join."""
        assert interaction.channel_id is not None
        host = display_name(interaction.user)
        rematch = await self.games.lobby.play_again(
            game_id, interaction.guild_id, interaction.user.id, host
        )
        row = rematch.row
        content = invitation(host, rematch.invited)
        pinged = discord.AllowedMentions(
            everyone=False,
            roles=False,
            users=[discord.Object(uid) for uid, _ in rematch.invited] if rematch.ping else [],
        )
        if row.channel_id == interaction.channel_id:
            await self.publisher.answer_with_lobby(interaction, row, content, pinged)
            return
        # The game was played in a thread: the new lobby opens in the channel it came from.
        message = await self.publisher.post_lobby(row, content, pinged)
        await tell(interaction, f"A new lobby is open: {message.jump_url}")

    @guarded
    async def on_end_confirmed(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The confirmation of /yahtzee end."""
        before = await self.games.tracking.find(game_id)
        row = await self.games.servers.end(
            game_id, interaction.user.id, interaction.permissions.manage_guild
        )
        await answers.edit(interaction, content="The game has been ended.", view=None)
        reason = f"{interaction.user.mention} ended the game. Start a new one with /yahtzee start."
        await self.publisher.ended(before, row, reason)

    # -- buttons that are no longer on their message ---------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction is guarded (acknowledged in time if its answer is slow), and a
        click is routed to its handler (``components.route``) if the message still shows
        that control; a click on one it no longer shows (an old client view) is refused
        politely, as is an id none of our controls has."""
        answers.guard(interaction)
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        routed = route(custom_id)
        if routed is None:  # not a control this bot ever made (a forged one)
            await self._refuse_unknown(interaction)
            return
        cls, values = routed
        shown = {
            (getattr(child, "custom_id", None), child.type.value)
            for row in interaction.message.components
            for child in getattr(row, "children", [])
        }
        kind = data.get("component_type")
        if kind == cls.kind and (custom_id, kind) in shown:
            await dispatch(interaction, cls, values)
            return
        if kind != cls.kind or custom_id in {shown_id for shown_id, _ in shown}:
            # a button's id sent as a menu's choice (or the other way round)
            await self._refuse_unknown(interaction)
            return
        game_id = next((int(part) for part in custom_id.split(":")[1:] if part.isdigit()), None)
        await self._refuse_stale(interaction, game_id)

    @guarded
    async def _refuse_unknown(self, interaction: discord.Interaction[Any]) -> None:
        raise Refusal("That control is not one of mine; nothing changed.")

    @guarded
    async def _refuse_stale(
        self, interaction: discord.Interaction[Any], game_id: int | None
    ) -> None:
        raise await self.games.tracking.stale_click(game_id)

    # -- places that are gone ---------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left or was removed from a server: its games can no longer be seen."""
        await self._end_unreachable(lambda row: row.guild_id == guild.id, "the bot left the server")

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A game's channel was deleted (its threads go with it)."""
        await self._end_unreachable(lambda row: row.channel_id == channel.id, "channel deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread was deleted."""
        await self._end_unreachable(lambda row: row.thread_id == payload.thread_id,
                                    "thread deleted")  # fmt: skip

    async def _end_unreachable(self, where: Callable[[GameRow], bool], reason: str) -> None:
        for game_id in await self.publisher.end_unreachable(where, reason):
            self.computers.stop(game_id)

    # -- repairs after a restart or reconnect ---------------------------------------------------

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.publisher.repair_all()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        await self.publisher.repair_all()


def message_id(interaction: discord.Interaction[Any]) -> int | None:
    """The id of the message a component was clicked on."""
    return interaction.message.id if interaction.message is not None else None


async def setup(bot: YahtzeeBot) -> None:
    """Load the cog and register its components (discord.py extension entry point)."""
    await bot.add_cog(Yahtzee(bot))

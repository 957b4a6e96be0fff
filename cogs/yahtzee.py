"""The /yahtzee commands and every click on the bot's messages: thin glue between Discord
and the game service. Rules live in bot.engine, SQL in bot.store, pixels in bot.render."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.engine import DEFAULT_PRESET, ROLLS_PER_TURN, ROUNDS, Preset
from bot.games import Board, Expired, GameService, Outcome, Pinged, Refusal, TimedOut, is_bot
from bot.leaderboard import BOARDS, PERIODS
from bot.store import GameRow

from .errors import guarded, tell
from .ui import (
    BOARD_FILE,
    CARD_FILE,
    FINAL_FILE,
    LEADERBOARD_FILE,
    STATS_FILE,
    board_embed,
    board_view,
    end_confirm_view,
    ended_embed,
    final_embed,
    final_view,
    hint_text,
    leaderboard_embed,
    leaderboard_view,
    lobby_embed,
    lobby_view,
    mention,
    png,
    report_text,
    share_view,
    shown_name,
    stats_embed,
    summary_embed,
    undo_view,
    undone_embed,
)

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)

TIMER_TICK_SECONDS = 5
# Discord's JSON error codes that mean a game's message or place is gone for good
UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, MISSING_ACCESS, MISSING_PERMISSIONS = 10003, 10008, 50001, 50013
THREAD_ARCHIVED = 50083  # edits in an archived thread fail until it is unarchived
REPAIR_PACE = 0.05  # seconds between two repaired games: at most 20 a second
UNDO_GRACE_MOVES = 4  # a bot waits this many move delays before closing someone's Undo
PRESET_CHOICES = [app_commands.Choice(name=f"{p.title} ({p.value})", value=p.value) for p in Preset]
USER_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)
T = TypeVar("T")


# What the bot needs in a game's channel to post boards there, as (attribute, name shown).
NEEDED_HERE = (
    ("view_channel", "View Channel"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
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
        "**Upper boxes** (Ones to Sixes) score the dice of that face; 63 or more earns +35.\n"
        "**Lower boxes**: Three/Four of a Kind score all five dice; Full House 25; Small "
        "Straight (four in a row) 30; Large Straight (five in a row) 40; Yahtzee (five alike) "
        "50; Chance the sum.\n"
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
        self._repair_lock = asyncio.Lock()
        self._bot_runs: dict[int, asyncio.Task[None]] = {}
        self._reminders: dict[int, discord.Message] = {}  # game id -> its turn's reminder
        super().__init__()

    async def cog_load(self) -> None:
        self.timers.start()

    async def cog_unload(self) -> None:
        self.timers.cancel()

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
        for row in await self.games.boards_behind(self.bot.owns):
            async with self._repair_lock:
                acted += await self._repair_one(row)
        for game_id in await self.games.due(self.bot.owns):
            outcome = await self.games.act(game_id)
            if outcome is None:
                continue
            acted += 1
            try:
                await self._apply(outcome)
            except discord.HTTPException:
                log.exception("game %s: could not show a timer's outcome; repairing later", game_id)
        return acted

    async def _apply(self, outcome: Outcome) -> None:
        if isinstance(outcome, Pinged):
            row = outcome.row
            minutes, seconds = divmod(outcome.seconds_left, 60)
            link = ""
            if row.board_message_id:
                link = f" https://discord.com/channels/{row.guild_id}/{row.board_channel_id}/{row.board_message_id}"
            reminder = await self._channel(row.board_channel_id).send(
                f"{mention(outcome.player_id)}, half your turn's time is gone: "
                f"{minutes}:{seconds:02d} left to play.{link}",
                allowed_mentions=USER_MENTIONS,
                delete_after=outcome.seconds_left + 5,  # in case the bot restarts meanwhile
            )
            self._reminders[row.id] = reminder
        elif isinstance(outcome, TimedOut):
            scored = outcome.scored
            row = scored.board.row
            # The database still names the board of the turn that ran out: it becomes the summary.
            await self._retire(
                row.board_channel_id,
                row.board_message_id,
                embed=summary_embed(scored, True, outcome.away),
            )
            await self._retire(row.board_channel_id, row.undo_message_id)
            if row.undo_message_id is not None:
                await self.games.undo_offered(row.id, None)
            if scored.final_image is not None:
                await self._post_final(row, scored.final_image)
            elif outcome.abandoned:
                await self._channel(row.board_channel_id).send(
                    embed=ended_embed("Everyone is away, so the game has ended without a result.")
                )
            else:
                await self._post_board(scored.board)
        elif isinstance(outcome, Expired):
            row = outcome.row
            await self._turn_over(row.id)
            if row.status == "cancelled":
                embed = lobby_embed(row)
                embed.description = outcome.reason
                await self._retire(row.channel_id, row.board_message_id, embed=embed)
            else:
                await self._retire(
                    row.board_channel_id,
                    row.board_message_id,
                    embed=ended_embed(outcome.reason),
                )
                await self._retire(row.board_channel_id, row.undo_message_id)

    @property
    def games(self) -> GameService:
        return self.bot.games

    # -- messages ----------------------------------------------------------------------------

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def _unarchiving(self, channel_id: int, act: Callable[[], Awaitable[T]]) -> T:
        """``act()``; if Discord answers that the game's thread is archived (a long game,
        a day without a post), unarchive the thread and ``act()`` once more."""
        try:
            return await act()
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
        log.info("thread %s was archived; unarchiving it to go on", channel_id)
        await self.bot.http.edit_channel(channel_id, archived=False, reason="a game goes on")
        return await act()

    async def _turn_over(self, game_id: int) -> None:
        """A turn has ended: its half-time reminder, if any, has done its job and goes (the
        channel keeps no extra message per reminded turn)."""
        reminder = self._reminders.pop(game_id, None)
        if reminder is not None:
            try:
                await reminder.delete()
            except discord.HTTPException as exc:
                log.info("could not delete the reminder of game %s: %s", game_id, exc)

    async def _post_board(self, board: Board, nonce: str | None = None) -> discord.Message | None:
        """A new live board that mentions the player to move (None if, while it was being
        posted, an Undo took the game back: the message is turned into a note)."""
        assert board.game is not None and board.image is not None
        await self._turn_over(board.row.id)
        seat = board.game.current_seat
        # The nonce makes a re-post after a crash return the message already posted, if any.
        message = await self._channel(board.row.board_channel_id).send(
            nonce=nonce or await self.games.nonce(board.row, f"v{board.row.version}"),
            content=f"{mention(seat.player_id, seat.name)}"
            + (" is playing." if is_bot(seat.player_id) else ", your turn!"),
            embed=board_embed(board),
            file=png(board.image, BOARD_FILE),
            view=board_view(board),
            allowed_mentions=USER_MENTIONS,
        )
        if not await self.games.board_shown(board.row, message.id, board.game):
            log.info("game %s: turn %s was undone while its board was posted", board.row.id,
                     board.game.turn_number)  # fmt: skip
            await self._retire(board.row.board_channel_id, message.id, embed=undone_embed())
            return None
        if is_bot(board.game.current_player_id):
            self._start_bots(board.row.id)
        return message

    # -- computer players --------------------------------------------------------------------

    def _start_bots(self, game_id: int) -> None:
        """Let the computer players whose turn it is play, step by step, in the background."""
        if game_id not in self._bot_runs:
            task = asyncio.create_task(self._run_bots(game_id), name=f"bots-{game_id}")
            self._bot_runs[game_id] = task
            task.add_done_callback(lambda _: self._bot_runs.pop(game_id, None))

    async def _run_bots(self, game_id: int) -> None:
        delay = self.bot.settings.bot_move_delay
        try:
            row = await self.games.store.get_game(game_id)
            if row is not None and row.undo_message_id is not None:
                # The bot's first roll closes the last player's Undo: give them a moment.
                await asyncio.sleep(UNDO_GRACE_MOVES * delay)
            while True:
                await asyncio.sleep(delay)
                step = await self.games.bot_step(game_id)
                if step is None:
                    return
                if isinstance(step, Board):
                    if step.row.board_message_id is not None:
                        await self._edit_board(step.row.board_message_id, step)
                    continue
                row = step.board.row
                await self._retire(
                    row.board_channel_id, row.board_message_id, embed=summary_embed(step)
                )
                await self._retire(row.board_channel_id, row.undo_message_id)
                if row.undo_message_id is not None:
                    await self.games.undo_offered(row.id, None)
                if step.final_image is not None:
                    await self._post_final(row, step.final_image)
                    return
                await self._post_board(step.board)  # starts the next bot's run if it is one
                return
        except Exception:
            log.exception(
                "game %s: a computer player's move failed; repairs will resume it", game_id
            )

    async def _edit_board(self, message_id: int, board: Board) -> None:
        """Show ``board`` on its message; if that message is gone (a moderator deleted it),
        post the board anew, as the repair after a restart does."""
        assert board.game is not None and board.image is not None
        image = board.image
        message = self._channel(board.row.board_channel_id).get_partial_message(message_id)
        try:
            await self._unarchiving(
                board.row.board_channel_id,
                lambda: message.edit(
                    embed=board_embed(board),
                    attachments=[png(image, BOARD_FILE)],
                    view=board_view(board),
                ),
            )
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise
            log.info("game %s: its board %s was deleted; posting it again", board.row.id,
                     message_id)  # fmt: skip
            await self._post_board(
                board, nonce=await self.games.nonce(board.row, f"v{board.row.version}r")
            )
            return
        await self.games.board_shown(board.row, message_id, board.game)

    async def _retire(self, channel_id: int, message_id: int | None, **changes: Any) -> None:
        """Take a message's components away (a turn that is over), ignoring a deleted message.

        A new embed replaces the message's text and pictures: a retired message keeps no
        picture and no stale "your turn!" (naming the attachments also keeps Discord from
        showing an old ``attachment://`` picture twice).
        """
        if message_id is None:
            return
        if "embed" in changes:
            changes.setdefault("attachments", [])
            changes.setdefault("content", None)
        message = self._channel(channel_id).get_partial_message(message_id)
        try:
            await self._unarchiving(channel_id, lambda: message.edit(view=None, **changes))
        except discord.HTTPException as exc:
            log.info("could not retire message %s in %s: %s", message_id, channel_id, exc)

    async def _post_final(self, row: GameRow, image: bytes | None = None) -> None:
        await self._turn_over(row.id)
        game = self.games.game_of(row)
        data = image if image is not None else await self.games.final_image(row)
        message = await self._channel(row.board_channel_id).send(
            nonce=await self.games.nonce(row, "final"),
            embed=final_embed(row, game),
            file=png(data, FINAL_FILE),
            view=final_view(row.id, analysis=row.preset == "official"),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.games.final_posted(row.id, message.id)

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
        row = await self.games.open_lobby(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            display_name(interaction.user),
            preset.value if preset else None,
        )
        await self._answer_with_lobby(interaction, row)

    async def _check_permissions(self, interaction: discord.Interaction[Any]) -> None:
        """Refuse, naming them, if the bot lacks what it needs to post this game's boards."""
        server = await self.games.server_settings(interaction.guild_id or 0)
        missing = missing_permissions(interaction, server.use_threads)
        if missing:
            raise permissions_refusal(missing)

    async def _answer_with_lobby(self, interaction: discord.Interaction[Any], row: GameRow) -> None:
        """Answer the interaction with the lobby message, and note it as the game's board."""
        response = await interaction.response.send_message(
            embed=lobby_embed(row),
            view=lobby_view(row),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if response.message_id is not None:
            await self.games.board_shown(row, response.message_id, None)

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
        image = await self.games.scorecard(
            interaction.channel_id, interaction.user.id, player.id if player else None
        )
        await interaction.response.send_message(file=png(image, CARD_FILE), ephemeral=True)

    @app_commands.command(name="end", description="End this channel's game (host or Manage Server)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Ask for confirmation, then end the game as abandoned."""
        assert interaction.channel_id is not None
        row = await self.games.check_can_end(
            interaction.channel_id, interaction.user.id, interaction.permissions.manage_guild
        )
        what = "game" if row.status == "active" else "lobby"
        await interaction.response.send_message(
            f"End this {what} for everyone? It is kept as abandoned and counts for nobody.",
            view=end_confirm_view(row.id),
            ephemeral=True,
        )

    @app_commands.command(name="rules", description="The rules, and the preset in play here")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """An ephemeral summary of the rules."""
        assert interaction.channel_id is not None
        row = await self.games.store.live_game_in(interaction.channel_id)
        preset = Preset(row.preset) if row else DEFAULT_PRESET
        embed = discord.Embed(
            title="Yahtzee rules", description=rules_text(preset), colour=0x24593B
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="leave", description="Leave this channel's game; the others play on")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the lobby or the running game."""
        assert interaction.channel_id is not None
        before = await self.games.live_game(interaction.channel_id)
        board = await self.games.leave_game(interaction.channel_id, interaction.user.id)
        row = board.row
        await interaction.response.send_message("You left the game.", ephemeral=True)
        if row.status in ("lobby", "cancelled"):
            if before.board_message_id:
                await (
                    self._channel(row.board_channel_id)
                    .get_partial_message(before.board_message_id)
                    .edit(embed=lobby_embed(row), view=lobby_view(row))
                )
            return
        name = display_name(interaction.user)
        await self._retire(row.board_channel_id, before.board_message_id)
        await self._retire(row.board_channel_id, before.undo_message_id)
        if row.status == "active":
            await self._post_board(board)
        elif row.status == "finished":
            await self._post_final(row)
        else:
            await self._channel(row.board_channel_id).send(
                embed=ended_embed(
                    f"{shown_name(name)} left, and nobody is left to play: the game has ended."
                )
            )

    @app_commands.command(
        name="hint", description="The best moves for your dice now (only you see it)"
    )
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """The three best choices with their expected final scores."""
        assert interaction.channel_id is not None
        row = await self.games.live_game(interaction.channel_id)
        await self._send_hint(interaction, row.id)

    async def _send_hint(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        choices = await self.games.hint(game_id, interaction.user.id)
        row = await self.games.store.get_game(game_id)
        assert row is not None
        text = hint_text(choices, self.games.game_of(row))
        await interaction.response.send_message(text, ephemeral=True)

    @guarded
    async def on_hint(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Hint button."""
        await self._send_hint(interaction, game_id)

    @app_commands.command(name="leaderboard", description="This server's Yahtzee leaderboard")
    @app_commands.describe(board="What to rank by (default: high scores)", period="Over which time")
    @app_commands.choices(
        board=[app_commands.Choice(name=title, value=key) for key, title in BOARDS.items()],
        period=[app_commands.Choice(name=title, value=key) for key, title in PERIODS.items()],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        board: app_commands.Choice[str] | None = None,
        period: app_commands.Choice[str] | None = None,
    ) -> None:
        """A page of a board as an image, with the caller's own rank under it."""
        assert interaction.guild_id is not None
        page = await self.bot.leaderboards.page(
            interaction.guild_id,
            board.value if board else "high",
            period.value if period else "all",
            0,
            interaction.user.id,
            display_name(interaction.user),
        )
        await interaction.response.send_message(
            embed=leaderboard_embed(page),
            file=png(page.image, LEADERBOARD_FILE),
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
        files = [] if stats.image is None else [png(stats.image, STATS_FILE)]
        await interaction.response.send_message(
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
        row = await self.games.live_game(interaction.channel_id)
        await interaction.response.send_message("Here it is again, at the bottom.", ephemeral=True)
        moved = ended_embed("This board moved to the bottom of the channel.")
        moved.title = "Yahtzee: board moved"
        if row.status == "lobby":
            message = await self._channel(row.channel_id).send(
                embed=lobby_embed(row), view=lobby_view(row)
            )
            await self._retire(row.channel_id, row.board_message_id, embed=moved)
            await self.games.board_shown(row, message.id, None)
            return
        board = await self.games.render(row)
        old = row.board_message_id
        posted = await self._post_board(board, nonce=f"yz{row.id}m{interaction.id}"[:25])
        if posted is not None and old != row.undo_message_id:
            await self._retire(row.board_channel_id, old, embed=moved)

    @app_commands.command(
        name="rejoin", description="Take your seat back after being skipped as away"
    )
    async def rejoin(self, interaction: discord.Interaction[Any]) -> None:
        """An away player comes back from their next turn."""
        assert interaction.channel_id is not None
        row = await self.games.rejoin(interaction.channel_id, interaction.user.id)
        await interaction.response.send_message(
            "Welcome back: you play again from your next turn.", ephemeral=True
        )
        await self._publish(row)

    @app_commands.command(
        name="kick", description="Remove an away player from the game (host or Manage Server)"
    )
    @app_commands.describe(player="The away player to remove")
    async def kick(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        """The host or an admin removes an away player; the others play on."""
        assert interaction.channel_id is not None
        board = await self.games.kick(
            interaction.channel_id,
            interaction.user.id,
            player.id,
            interaction.permissions.manage_guild,
        )
        await interaction.response.send_message(
            f"{shown_name(display_name(player))} was removed from the game.", ephemeral=True
        )
        await self._publish(board.row)

    # -- clicks ------------------------------------------------------------------------------

    @guarded
    async def on_share(
        self, interaction: discord.Interaction[Any], kind: str, args: tuple[str, ...]
    ) -> None:
        """Share on a private leaderboard or stats answer: the same, for the channel."""
        assert interaction.guild_id is not None
        if kind == "stats":
            user_id = int(args[0])
            name = display_name(interaction.user) if user_id == interaction.user.id else (
                await self.bot.leaderboards.name(interaction.guild_id, user_id) or "a player"
            )  # fmt: skip
            await self._send_stats(interaction, user_id, name, private=False)
            return
        board, period, number = (args + ("", "", ""))[:3]
        if board not in BOARDS or period not in PERIODS or not number.isdigit():
            raise Refusal("That leaderboard does not exist; use /yahtzee leaderboard.")
        page = await self.bot.leaderboards.page(
            interaction.guild_id, board, period, int(number), interaction.user.id,
            display_name(interaction.user),
        )  # fmt: skip
        await interaction.response.send_message(
            f"Shared by {interaction.user.mention}",
            embed=leaderboard_embed(page),
            file=png(page.image, LEADERBOARD_FILE),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @guarded
    async def on_page(
        self, interaction: discord.Interaction[Any], board: str, period: str, page: int
    ) -> None:
        """Previous or Next on a leaderboard: the message shows the other page."""
        assert interaction.guild_id is not None
        shown = await self.bot.leaderboards.page(
            interaction.guild_id,
            board,
            period,
            page,
            interaction.user.id,
            display_name(interaction.user),
        )
        await interaction.response.edit_message(
            embed=leaderboard_embed(shown),
            attachments=[png(shown.image, LEADERBOARD_FILE)],
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
            board = await self.games.begin(game_id, user.id)
            await interaction.response.edit_message(embed=lobby_embed(board.row), view=None)
            server = await self.games.server_settings(interaction.guild_id or 0)
            try:
                if server.use_threads and interaction.message is not None:
                    board = await self._move_to_thread(interaction.message, board)
                await self._post_board(board)
            except discord.Forbidden as exc:
                # a channel overwrite the interaction's permissions did not show: the game
                # cannot be seen, so it must not be played on by the timer
                log.warning("game %s: its first board could not be posted: %s", game_id, exc)
                row = await self.games.unreachable(game_id, "first board refused (403)")
                if row is not None and interaction.message is not None:
                    await self._retire(
                        row.channel_id,
                        interaction.message.id,
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
            return
        if action in ("bot-optimal", "bot-casual"):
            row = await self.games.add_bot(game_id, user.id, action.removeprefix("bot-"))
        elif action == "hints":
            row = await self.games.toggle_hints(game_id, user.id)
        elif action == "join":
            row = await self.games.join(game_id, user.id, display_name(user))
        elif action == "leave":
            row = await self.games.leave_lobby(game_id, user.id)
        else:
            row = await self.games.cancel(game_id, user.id)
        await interaction.response.edit_message(embed=lobby_embed(row), view=lobby_view(row))
        if interaction.message is not None:
            await self.games.board_shown(row, interaction.message.id, None)

    async def _move_to_thread(self, lobby: discord.Message, board: Board) -> Board:
        """Thread mode: the game is played in a thread started from its lobby message."""
        assert board.game is not None
        names = ", ".join(seat.name for seat in board.game.seats)
        try:
            thread = await lobby.create_thread(
                name=f"Yahtzee: {names}"[:100], auto_archive_duration=10080
            )
        except discord.HTTPException as exc:  # e.g. the lobby is itself in a thread
            log.info(
                "game %s: could not start a thread, playing in the channel: %s", board.row.id, exc
            )
            return board
        row = await self.games.set_thread(board.row.id, thread.id)
        return Board(row, board.game, board.image)

    def _message_id(self, interaction: discord.Interaction[Any]) -> int | None:
        return interaction.message.id if interaction.message is not None else None

    async def _show(self, interaction: discord.Interaction[Any], board: Board) -> None:
        image = board.image
        assert image is not None
        await self._unarchiving(
            board.row.board_channel_id,
            lambda: interaction.response.edit_message(
                embed=board_embed(board),
                attachments=[png(image, BOARD_FILE)],
                view=board_view(board),
            ),
        )
        message_id = self._message_id(interaction)
        if message_id is not None:
            await self.games.board_shown(board.row, message_id, board.game)

    @guarded
    async def on_hold(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, rolls: int, index: int
    ) -> None:
        """A die button."""
        board = await self.games.hold(
            game_id, interaction.user.id, self._message_id(interaction), turn, rolls, index
        )
        await self._show(interaction, board)

    @guarded
    async def on_roll(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, rolls: int
    ) -> None:
        """The Roll button; a roll also closes the previous scorer's Undo."""
        board = await self.games.roll(
            game_id, interaction.user.id, self._message_id(interaction), turn, rolls
        )
        await self._show(interaction, board)
        await self._retire(board.row.board_channel_id, board.retire_undo_message_id)

    @guarded
    async def on_score(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, rolls: int, box: str
    ) -> None:
        """The box menu: this message becomes the turn's summary, and the next turn is posted."""
        scored = await self.games.score(
            game_id, interaction.user.id, self._message_id(interaction), turn, rolls, box
        )
        row = scored.board.row
        final = scored.final_image is not None
        await self._unarchiving(
            row.board_channel_id,
            lambda: interaction.response.edit_message(
                content=None,
                embed=summary_embed(scored),
                attachments=[],
                view=None if final else undo_view(game_id, turn),
            ),
        )
        if scored.final_image is not None:
            await self._post_final(row, scored.final_image)
            return
        # recorded once the summary shows (a lost answer leaves a board, not an Undo offer)
        await self.games.undo_offered(game_id, self._message_id(interaction))
        await self._post_board(scored.board)

    @guarded
    async def on_undo(self, interaction: discord.Interaction[Any], game_id: int, turn: int) -> None:
        """Undo: this message is the live board again; the next turn's message goes away."""
        undone = await self.games.undo(
            game_id, interaction.user.id, self._message_id(interaction), turn
        )
        await self._show(interaction, undone.board)
        await self._retire(
            undone.board.row.board_channel_id,
            undone.retire_message_id,
            embed=undone_embed(undone.board.game),
        )

    @guarded
    async def on_scorecard(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Scorecard button: the clicker's card, ephemeral."""
        image = await self.games.scorecard_of(game_id, interaction.user.id, None)
        await interaction.response.send_message(file=png(image, CARD_FILE), ephemeral=True)

    @guarded
    async def on_analysis(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Analysis button: the clicker's report card, only for them."""
        report = await self.games.report(game_id, interaction.user.id)
        await interaction.response.send_message(report_text(report), ephemeral=True)

    @guarded
    async def on_play_again(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Play again: a lobby with the same players, the clicker as host."""
        assert interaction.channel_id is not None
        row = await self.games.play_again(
            game_id, interaction.guild_id, interaction.user.id, display_name(interaction.user)
        )
        if row.channel_id == interaction.channel_id:
            await self._answer_with_lobby(interaction, row)
            return
        # The game was played in a thread: the new lobby opens in the channel it came from.
        message = await self._channel(row.channel_id).send(
            embed=lobby_embed(row),
            view=lobby_view(row),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.games.board_shown(row, message.id, None)
        await tell(interaction, f"A new lobby is open: {message.jump_url}")

    @guarded
    async def on_end_confirmed(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The confirmation of /yahtzee end."""
        before = await self.games.store.get_game(game_id)
        row = await self.games.end(
            game_id, interaction.user.id, interaction.permissions.manage_guild
        )
        await interaction.response.edit_message(content="The game has been ended.", view=None)
        if before is not None:
            reason = (
                f"{interaction.user.mention} ended the game. Start a new one with /yahtzee start."
            )
            await self._retire(
                row.board_channel_id,
                before.board_message_id,
                embed=ended_embed(reason),
            )
            await self._retire(row.board_channel_id, before.undo_message_id)

    # -- buttons that are no longer on their message ---------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on one of our buttons that its message no longer shows (an old client view).

        discord.py hands a component to its DynamicItem only if the message still carries it;
        otherwise nothing would answer and the user would see "This interaction failed".
        """
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith("yz:"):
            return
        shown = {
            getattr(child, "custom_id", None)
            for row in interaction.message.components
            for child in getattr(row, "children", [])
        }
        if custom_id in shown:
            return
        game_id = next((int(part) for part in custom_id.split(":")[1:] if part.isdigit()), None)
        await self._refuse_stale(interaction, game_id)

    @guarded
    async def _refuse_stale(
        self, interaction: discord.Interaction[Any], game_id: int | None
    ) -> None:
        raise await self.games.stale_click(game_id)

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
        """End, recording nothing, every live game ``where`` picks: no timer, repair or
        computer player acts on a game nobody can see (nor spends Discord's invalid-request
        allowance on it)."""
        for row in await self.games.store.live_games():
            if where(row):
                log.info("game %s: %s; it ends without a result", row.id, reason)
                await self.games.unreachable(row.id, reason)
                run = self._bot_runs.pop(row.id, None)
                if run is not None:
                    run.cancel()

    # -- repairs after a restart or reconnect ---------------------------------------------------

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.repair_boards()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        await self.repair_boards()

    async def repair_boards(self) -> None:
        """Make every live game's messages match the database: post or edit what is missing."""
        async with self._repair_lock:
            rows = [
                row
                for row in await self.games.store.live_games()
                + await self.games.store.games_missing_final_message()
                if self.bot.owns(row.guild_id)  # another process repairs the other shards
            ]
            for row in rows:
                if await self._repair_one(row):
                    # paced: a mass repair after a resume must leave Discord's rate limits
                    # (50 requests a second) to the clicks
                    await asyncio.sleep(REPAIR_PACE)

    async def _repair_one(self, row: GameRow) -> int:
        """``_repair`` one game, ending it if its place is gone; 1 if it sent anything."""
        try:
            return int(await self._repair(row))
        except discord.HTTPException as exc:
            if exc.code in (UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS):
                # retrying can't help, and every refused request counts towards Discord's
                # limit of invalid requests; a game nobody can see must not play on
                log.info("game %s: its channel is gone or closed to the bot (%s); "
                         "it ends without a result", row.id, exc)  # fmt: skip
                await self.games.unreachable(row.id, f"Discord error {exc.code}")
            else:
                log.exception("could not repair the messages of game %s", row.id)
        except Exception:
            log.exception("could not repair the messages of game %s", row.id)
        return 1  # it sent what failed

    async def _publish(self, row: GameRow) -> None:
        """Bring a game's messages in line with the database (after a command changed it)."""
        fresh = await self.games.store.get_game(row.id)
        if fresh is None:
            return
        if fresh.status in ("abandoned", "cancelled"):
            await self._retire(fresh.board_channel_id, fresh.board_message_id)
            return
        await self._repair(fresh)

    async def _repair(self, row: GameRow) -> bool:
        """Post or edit what a game's messages miss; True if anything had to be sent."""
        if row.status == "lobby":
            if row.board_message_id is None:
                message = await self._channel(row.board_channel_id).send(
                    embed=lobby_embed(row), view=lobby_view(row)
                )
                await self.games.board_shown(row, message.id, None)
                return True
            if row.board_version != row.version:
                await (
                    self._channel(row.board_channel_id)
                    .get_partial_message(row.board_message_id)
                    .edit(embed=lobby_embed(row), view=lobby_view(row))
                )
                await self.games.board_shown(row, row.board_message_id, None)
                return True
            return False
        if row.status == "finished":
            log.info("game %s: posting its missing final message", row.id)
            await self._retire(row.board_channel_id, row.board_message_id)
            await self._retire(row.board_channel_id, row.undo_message_id)
            await self._post_final(row)
            return True
        game = self.games.game_of(row)
        sent = False
        if row.undo_message_id is not None and game.undo_player_id is None:
            await self._retire(row.board_channel_id, row.undo_message_id)
            await self.games.undo_offered(row.id, None)
            sent = True
        if row.board_message_id is None or row.board_turn != game.turn_number:
            log.info("game %s: posting the board for turn %s", row.id, game.turn_number)
            if row.board_message_id != row.undo_message_id:
                await self._retire(row.board_channel_id, row.board_message_id)
            await self._post_board(await self.games.render(row))
            sent = True
        elif row.board_version != row.version:
            log.info("game %s: bringing its board up to version %s", row.id, row.version)
            await self._edit_board(row.board_message_id, await self.games.render(row))
            sent = True
        if is_bot(game.current_player_id):
            self._start_bots(row.id)
        return sent


async def setup(bot: YahtzeeBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(Yahtzee(bot))

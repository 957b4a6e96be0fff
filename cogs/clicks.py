"""Every click on the bot's messages: ``Clicks.on_interaction`` routes a click
(``components.route``) to the handler its control names, each named for what the click
does (``roll_dice`` for the Roll button: grep a control's ``handler=``)."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.games import Board, GameService, Refusal
from bot.games.leaderboards import LEADERBOARD_KINDS, PERIODS
from bot.i18n import ENGLISH
from bot.i18n.words import N_, Label

from .errors import guarded, tell
from .shared import (
    check_member_may_post,
    check_permissions,
    display_name,
    leaderboard_page,
    message_id,
    send_hint,
    send_stats,
)
from .ui import answers
from .ui.components import BoxSelect, DieButton, RollButton, UndoButton, dispatch, route
from .ui.language import channel, private, public
from .ui.messages import (
    ended_embed,
    invitation,
    leaderboard_files,
    leaderboard_layout,
    lobby_edit,
    replay_text,
    report_text,
    send_card,
    summary_embed,
    undo_view,
)
from .ui.publisher import Publisher

if TYPE_CHECKING:
    from bot.app import YahtzeeBot

log = logging.getLogger(__name__)

#: The controls of a turn: on a daily challenge's replaced private board, they are refused.
TURN_CONTROLS = frozenset({DieButton, RollButton, BoxSelect, UndoButton})


class Clicks(commands.Cog):
    """The buttons and menus of boards, lobbies, final messages and leaderboards."""

    def __init__(self, bot: YahtzeeBot, publisher: Publisher) -> None:
        self.bot = bot
        self.publisher = publisher

    @property
    def games(self) -> GameService:
        return self.bot.games

    @guarded
    async def show_replay(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Replay button of a finished daily challenge: its turns as text (private)."""
        turns = await self.games.daily.daily_replay(game_id, interaction.user.id)
        text = replay_text(private(interaction), turns)
        await answers.send(interaction, text[:2000], ephemeral=True)

    @guarded
    async def show_hint(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Hint button."""
        await send_hint(self.games, interaction, game_id)

    @guarded
    async def share(self, interaction: discord.Interaction[Any], what: str, args: str) -> None:
        """Share on a private leaderboard or stats answer: the same, for the channel."""
        assert interaction.guild_id is not None
        check_member_may_post(interaction)  # it is posted here for the member
        shared = (interaction.channel_id, what)  # a leaderboard, then stats: both at once
        self.publisher.pace.check(interaction.user.id, "share", shared)
        parts = tuple(args.split(":"))
        if what == "stats":
            user_id = int(parts[0])
            name = display_name(interaction.user) if user_id == interaction.user.id else (
                await self.bot.games.leaderboards.name(interaction.guild_id, user_id)
                or (await channel(self.games, interaction))("a player")
            )  # fmt: skip
            await send_stats(self.games, interaction, user_id, name, private_answer=False)
            self.publisher.pace.used(interaction.user.id, "share", shared)
            return
        kind, period, number = (parts + ("", "", ""))[:3]
        if kind not in LEADERBOARD_KINDS or period not in PERIODS or not number.isdigit():
            raise Refusal("That leaderboard does not exist; use /yahtzee leaderboard.")
        boards = self.bot.games.leaderboards
        _ = await channel(self.games, interaction)  # for everyone: the server's language
        page = await leaderboard_page(boards, interaction, kind, period, int(number), _)
        picture = interaction.app_permissions.attach_files
        await answers.send(
            interaction,
            view=leaderboard_layout(_, page, picture, shared_by=interaction.user.mention),
            files=leaderboard_files(page, picture),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.publisher.pace.used(interaction.user.id, "share", shared)

    @guarded
    async def turn_page(
        self, interaction: discord.Interaction[Any], kind: str, period: str, page: int, step: str
    ) -> None:
        """Previous or Next on a leaderboard: the message shows the other page."""
        number = page - 1 if step == "prev" else page + 1
        boards = self.bot.games.leaderboards
        _ = private(interaction)
        shown = await leaderboard_page(boards, interaction, kind, period, number, _)
        picture = interaction.app_permissions.attach_files
        await answers.edit(
            interaction,
            attachments=leaderboard_files(shown, picture),
            view=leaderboard_layout(_, shown, picture),
        )

    @guarded
    async def lobby_action(
        self, interaction: discord.Interaction[Any], action: str, game_id: int
    ) -> None:
        """Join, Leave, Start or Cancel."""
        user = interaction.user
        if action == "start":
            await check_permissions(self.games, interaction)
            # the game's board is posted for its host: in a thread of its own in thread mode
            threads = (
                await self.games.servers.server_settings(interaction.guild_id or 0)
            ).use_threads
            check_member_may_post(interaction, True if threads else None)
            pictures = interaction.app_permissions.attach_files
            board = await self.games.lobby.begin(game_id, user.id, pictures)
            await answers.edit(interaction, **lobby_edit(board.row))
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
            await self.publisher.forget(game_id)
            if row is not None and lobby is not None:
                _ = public(row)
                await self.publisher.retire_lobby(
                    row,
                    lobby.id,
                    _(
                        "Discord did not let me post the board in this channel (missing "
                        "permissions), so the game did not start and counts for nobody. "
                        "Ask a server admin to check my permissions here."
                    ),
                )
            _ = private(interaction)
            await tell(
                interaction,
                _(
                    "The game could not start: I'm not allowed to post its board here. "
                    "Ask a server admin to check my permissions."
                ),
            )

    @guarded
    async def hold_die(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, rolls: int, index: int
    ) -> None:
        """A die button."""
        board = await self.games.turns.hold(
            game_id, interaction.user.id, message_id(interaction), turn, rolls, index
        )
        await self.publisher.show_controls(interaction, board)

    @guarded
    async def roll_dice(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, rolls: int
    ) -> None:
        """The Roll button; a roll also closes the previous scorer's Undo."""
        board = await self.games.turns.roll(
            game_id, interaction.user.id, message_id(interaction), turn, rolls,
            interaction.app_permissions.attach_files,
        )  # fmt: skip
        await self.publisher.show(interaction, board)
        if board.retire_undo_message_id != message_id(interaction):  # not this very board
            await self.publisher.retire(
                board.row.board_channel_id,
                board.retire_undo_message_id,
                board.row.daily is not None,  # a private board: only a token reaches it
            )

    @guarded
    async def score_box(
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
                embed=summary_embed(scored, faces=self.publisher.faces),
                attachments=[],
                view=None if scored.finished else undo_view(public(row), game_id, turn),
            ),
        )
        if scored.finished:
            await self.publisher.post_final(row, scored.final_image)
            return
        await self.publisher.scored(game_id, message_id(interaction))
        await self.publisher.post_board(scored.board)

    @guarded
    async def undo_scoring(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int
    ) -> None:
        """Undo: this message is the live board again; the next turn's message goes away."""
        undone = await self.games.turns.undo(
            game_id, interaction.user.id, message_id(interaction), turn
        )
        row = undone.board.row
        said = None
        if row.daily is not None:  # the private board's line said the scoring: not any more
            _ = public(row)
            said = "\N{LEFTWARDS ARROW WITH HOOK} " + _(
                "Your last scoring was taken back: the dice are as they were before it."
            )
        await self.publisher.show(interaction, undone.board, said)
        # The undone turn (the next player's) is over: its half-time reminder goes.
        await self.publisher.turn_over(game_id, undone.board.row)
        # The next turn's board waits, without controls, to be that turn's board again.
        await self.publisher.park(
            game_id,
            undone.board.row.board_channel_id,
            undone.retire_message_id,
            undone.retire_turn,  # known also after a restart, unlike what was pinged
            undone.board.row.language,
        )

    @guarded
    async def show_scorecard(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Scorecard button: the clicker's card, ephemeral."""
        card = await self.games.scorecards.of_game(
            game_id,
            interaction.user.id,
            None,
            interaction.app_permissions.attach_files,
            private(interaction).code,  # only the clicker sees it
        )
        await send_card(interaction, card)

    @guarded
    async def show_card_of(
        self, interaction: discord.Interaction[Any], game_id: int, value: str
    ) -> None:
        """The menu under a private scorecard: that player's card, in its place."""
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
        await send_card(interaction, card, edit=True)

    @guarded
    async def show_analysis(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The Analysis button: the clicker's report card, only for them."""
        report = await self.games.coaching.report(game_id, interaction.user.id)
        await answers.send(interaction, report_text(private(interaction), report), ephemeral=True)

    @guarded
    async def play_again(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Play again: a lobby hosted by the clicker that invites the other players (one
        ping); they take a seat with Join."""
        assert interaction.channel_id is not None
        old = await self.games.lookups.find(game_id)
        # the lobby opens in the game's channel: from its thread, in the thread's parent
        in_thread = None if old is None or old.thread_id is None else False
        check_member_may_post(interaction, in_thread)
        self.publisher.pace.check(interaction.user.id, "again", game_id)
        host = display_name(interaction.user)
        rematch = await self.games.lobby.play_again(
            game_id, interaction.guild_id, interaction.user.id, host
        )
        row = rematch.row
        invited = invitation(public(row), host, rematch.invited)
        pinged = discord.AllowedMentions(
            everyone=False,
            roles=False,
            users=[discord.Object(uid) for uid, _name in rematch.invited] if rematch.ping else [],
        )
        self.publisher.pace.used(interaction.user.id, "again", game_id)
        if row.channel_id == interaction.channel_id:
            await self.publisher.answer_with_lobby(interaction, row, invited, pinged)
            return
        # The game was played in a thread: the new lobby opens in the channel it came from.
        message = await self.publisher.post_lobby(row, invited, pinged)
        _ = private(interaction)
        await tell(interaction, _("A new lobby is open: {link}", link=message.jump_url))

    @guarded
    async def end_confirmed(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The confirmation of /yahtzee end."""
        before = await self.games.lookups.find(game_id)
        row = await self.games.servers.end(
            game_id, interaction.user.id, interaction.permissions.manage_guild
        )
        _ = private(interaction)
        await answers.edit(interaction, content=_("The game has been ended."), view=None)
        _ = public(row)
        reason = _("{who} ended the game. Start a new one with /yahtzee start.",
                   who=interaction.user.mention)  # fmt: skip
        await self.publisher.ended(before, row, reason)

    @guarded
    async def leave_confirmed(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The confirmation of /yahtzee leave on a daily challenge: the day's try is given up."""
        before = await self.games.lookups.find(game_id)
        board = await self.games.turns.leave_daily(game_id, interaction.user.id)
        _ = private(interaction)
        await answers.edit(
            interaction,
            content=_("You left your daily challenge; it counts as today's try."),
            view=None,
        )
        if before is not None:  # its private board says so, if a token still reaches it
            _ = public(board.row)
            await self.publisher.retire(
                before.board_channel_id,
                before.board_message_id,
                True,
                embed=ended_embed(_, _("You left your daily challenge; it counts as today's try.")),
            )
        self.publisher.forget_copy(game_id)

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
        game_id = next((int(part) for part in custom_id.split(":")[1:] if part.isdigit()), None)
        if cls in TURN_CONTROLS and game_id is not None and interaction.message.flags.ephemeral:
            live = self.publisher.live_copy_elsewhere(game_id, interaction.message.id)
            if live is not None:  # /yahtzee daily showed the private board again since
                await self._refuse_replaced(interaction, live.channel_id)
                return
        shown = set(_controls(interaction.message.components))
        kind = data.get("component_type")
        if kind == cls.kind and (custom_id, kind) in shown:
            if "game_id" in values:  # every game's click is bound to its server and channel
                try:
                    await self.games.posts.check_click(
                        values["game_id"], interaction.guild_id, interaction.channel_id,
                        interaction.message.id,
                    )  # fmt: skip
                except Exception as error:  # answered by the guard, as a handler's
                    await self._refuse(interaction, error)
                    return
            await dispatch(interaction, cls, values)
            return
        if kind != cls.kind or custom_id in {shown_id for shown_id, _ in shown}:
            # a button's id sent as a menu's choice (or the other way round)
            await self._refuse_unknown(interaction)
            return
        await self._refuse_stale(interaction, game_id)

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

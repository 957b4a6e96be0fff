"""What the bot's messages look like: embeds, files and restart-proof components.

Every button and select is a ``discord.ui.DynamicItem`` whose custom_id carries what the
click needs, so it keeps working after a restart:

=========================================  ==================================================
custom_id                                  component
=========================================  ==================================================
``yz:lobby:<action>:<game>``               lobby buttons: join, leave, start, cancel
``yz:die:<game>:<turn>:<rolls>:<i>``       hold or release die ``i`` (0-4)
``yz:roll:<game>:<turn>:<rolls>``          roll the dice not held
``yz:box:<game>:<turn>:<rolls>``           the select of legal boxes
``yz:card:<game>``                         the clicker's scorecard (ephemeral)
``yz:undo:<game>:<turn>``                  take back the scoring of turn ``turn``
``yz:again:<game>``                        a new lobby with the same players
``yz:end:<game>``                          confirm ending the game
=========================================  ==================================================

``turn`` is the number of turns completed in the game and ``rolls`` the rolls used this
turn, so a click on an older board, or a second click on Roll, is recognised and refused
politely instead of being applied to the wrong turn. Callbacks hand over to the Yahtzee cog.
"""

from __future__ import annotations

import io
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import LOWER, ROLLS_PER_TURN, ROUNDS, Category, Game, Preset, score
from bot.games import Board, Report, Scored, is_bot
from bot.leaderboard import BOARDS, PERIODS, LeaderboardPage, PlayerStats
from bot.store import GameRow, GuildSettings
from bot.strategy.decisions import Choice

if TYPE_CHECKING:
    from cogs.yahtzee import Yahtzee

BOARD_FILE = "board.png"
FINAL_FILE = "final.png"
CARD_FILE = "scorecard.png"
GREEN = discord.Colour(0x24593B)
GOLD = discord.Colour(0xD69712)
GREY = discord.Colour(0x4F545C)
MEDALS = {1: "\N{FIRST PLACE MEDAL}", 2: "\N{SECOND PLACE MEDAL}", 3: "\N{THIRD PLACE MEDAL}"}
LOCK = "\N{LOCK}"


def controller(interaction: discord.Interaction[Any]) -> Yahtzee:
    """The cog that handles every click."""
    from cogs.yahtzee import Yahtzee

    cog = interaction.client.get_cog("Yahtzee")
    if not isinstance(cog, Yahtzee):  # pragma: no cover - the cog is loaded in setup_hook
        raise RuntimeError("the Yahtzee cog is not loaded")
    return cog


def shown_name(name: str) -> str:
    """A player's name as text in a message: its markdown and mention syntax made inert
    (``**x``, a backtick, ``||`` or ``@everyone`` in a name shows as typed)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def mention(player_id: str | int, name: str = "") -> str:
    """A user mention from an engine player id, with the name beside it (a client that has
    not loaded the member shows a bare mention); a computer player's name in bold."""
    if is_bot(player_id):
        return f"\N{ROBOT FACE} **{shown_name(name or 'Computer')}**"
    return f"<@{player_id}> ({shown_name(name)})" if name else f"<@{player_id}>"


def png(data: bytes, name: str) -> discord.File:
    """A PNG attachment."""
    return discord.File(io.BytesIO(data), filename=name)


# -- lobby -----------------------------------------------------------------------------------


def lobby_embed(row: GameRow) -> discord.Embed:
    """The lobby: players so far, the host, the preset, and what to do."""
    preset = Preset(row.preset)
    embed = discord.Embed(title="Yahtzee: lobby", colour=GREEN)
    if row.status == "lobby":
        embed.description = (
            "Press **Join** to take a seat (up to 8). The host presses **Start** when "
            "everyone is in; a solo game is fine too."
        )
    elif row.status == "active":
        embed.description = "The game has started: the board is below."
    else:
        embed.description = "This lobby is closed."
        embed.colour = GREY
    seated = "\n".join(
        f"`#{i}` {mention(uid, name)}" + (" (host)" if uid == row.host_id else "")
        for i, (uid, name) in enumerate(row.players, 1)
    )
    embed.add_field(
        name=f"Players ({len(row.players)}/8)", value=seated or "nobody yet", inline=False
    )
    embed.set_footer(text=f"{preset.title} rules: {preset.description}")
    return embed


def lobby_view(row: GameRow) -> discord.ui.View:
    """Join, Leave, Start and Cancel while the lobby is open (no buttons once it closes)."""
    view = discord.ui.View(timeout=None)
    if row.status != "lobby":
        return view
    for action, label, style in (
        ("join", "Join", discord.ButtonStyle.success),
        ("leave", "Leave", discord.ButtonStyle.secondary),
        ("start", "Start", discord.ButtonStyle.primary),
        ("cancel", "Cancel", discord.ButtonStyle.danger),
        ("bot-optimal", "Add bot (Optimal)", discord.ButtonStyle.secondary),
        ("bot-casual", "Add bot (Casual)", discord.ButtonStyle.secondary),
        ("hints", f"Hints: {'on' if row.hints else 'off'}", discord.ButtonStyle.secondary),
    ):
        view.add_item(LobbyButton(action, row.id, label, style))
    return view


# -- a turn ----------------------------------------------------------------------------------


def scores_field(game: Game) -> str:
    """Every seat's running total, numbered like the image's columns."""
    lines = []
    for i, seat in enumerate(game.seats):
        marker = " \N{LEFTWARDS ARROW} to play" if i == game.current and not game.is_over else ""
        if seat.left:
            marker = " (left)"
        elif seat.away:
            marker = " (away: /yahtzee rejoin)"
        lines.append(
            f"`#{i + 1}` {mention(seat.player_id, seat.name)}: **{seat.card.total}**{marker}"
        )
    return "\n".join(lines)


def board_embed(board: Board) -> discord.Embed:
    """The live board's embed; the image is attached as board.png."""
    game = board.game
    assert game is not None
    seat = game.current_seat
    who = mention(seat.player_id, seat.name)
    if is_bot(seat.player_id):
        text = f"{who} is playing its turn" + (
            f": roll {game.rolls_used} of {ROLLS_PER_TURN}." if game.dice is not None else "."
        )
    elif game.dice is None:
        text = f"{who}, it's your turn: press **Roll**."
    elif game.rolls_left == 0:
        text = f"{who}: that was roll {ROLLS_PER_TURN} of {ROLLS_PER_TURN}. Pick a box to score."
    else:
        text = (
            f"{who}: roll {game.rolls_used} of {ROLLS_PER_TURN}. Click dice to hold them, then "
            "**Roll** again, or pick a box to score now."
        )
    if board.row.deadline_at is not None:  # a live countdown in every client's own time
        deadline = datetime.fromisoformat(board.row.deadline_at)
        text += f"\n\N{ALARM CLOCK} Time runs out <t:{int(deadline.timestamp())}:R>."
    embed = discord.Embed(
        title=f"Yahtzee: round {game.round} of {ROUNDS}", description=text, colour=GREEN
    )
    embed.add_field(name="Scores", value=scores_field(game), inline=False)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=f"{game.preset.title} rules · /yahtzee rules · /yahtzee scorecard")
    return embed


def box_label(category: Category, points: int, game: Game) -> tuple[str, str | None]:
    """A select option's label and description for scoring the dice in ``category``."""
    card = game.current_seat.card
    dice = game.dice
    assert dice is not None
    if category is Category.YAHTZEE and card.is_filled(Category.YAHTZEE):
        return "Yahtzee bonus: +100", "Takes the bonus; no box is filled this turn"
    description = None
    if card.joker_applies(dice):
        description = "Joker" if category in LOWER else "Joker: forced here"
        if card.bonus_for(dice):
            description += ", +100 Yahtzee bonus"
    elif points == 0:
        description = "Scratch: fills the box with 0"
    return f"{category.label}: {points}", description


def board_view(board: Board) -> discord.ui.View:
    """Five die buttons; Roll and Scorecard; the select of legal boxes."""
    game = board.game
    assert game is not None
    gid, turn, rolls = board.row.id, game.turn_number, game.rolls_used
    view = discord.ui.View(timeout=None)
    computer = is_bot(game.current_player_id)  # its turn: only the Scorecard is for people
    can_hold = game.dice is not None and game.rolls_left > 0 and not computer
    for i in range(5):
        face = game.dice[i] if game.dice is not None else None
        view.add_item(DieButton(gid, turn, rolls, i, face, game.held[i], not can_hold))
    view.add_item(RollButton(gid, turn, rolls, game.rolls_left, disabled=computer))
    view.add_item(ScorecardButton(gid))
    if board.row.hints:
        view.add_item(HintButton(gid, disabled=computer))
    options: list[discord.SelectOption] = []
    for category, points in ({} if computer else game.options()).items():
        label, description = box_label(category, points, game)
        options.append(
            discord.SelectOption(label=label, value=category.value, description=description)
        )
    waiting = "The computer is playing its turn" if computer else "Roll first, then pick a box"
    view.add_item(BoxSelect(gid, turn, rolls, options, waiting))
    return view


def summary_embed(scored: Scored, timed_out: bool = False, away: bool = False) -> discord.Embed:
    """A finished turn, in text only: who scored what. Its picture goes (it showed the dice
    before the scoring, and a game's channel is read on phones): edit it in with
    ``attachments=[]``, which also keeps Discord from showing the old picture loose."""
    result = scored.result
    if result.bonus_turn:
        what = f"took a **Yahtzee bonus** (+100) with {result.dice}"
    else:
        what = f"scored **{result.points}** in **{result.category.label}** with {result.dice}"
        if result.bonus:
            what += f", plus a **+{result.bonus}** Yahtzee bonus"
    text = f"{mention(result.player_id, scored.scorer_name)} {what}."
    if score(Category.YAHTZEE, result.dice):  # five alike, wherever they were scored
        text = f"\N{PARTY POPPER} **Yahtzee!** {text}"
    if timed_out:
        text = f"\N{ALARM CLOCK} Time ran out, so the turn was played for them: {text}"
        if away:
            text += (
                " They timed out twice in a row and are skipped from now on; "
                "`/yahtzee rejoin` brings them back."
            )
    embed = discord.Embed(
        title=f"Yahtzee: round {scored.round} of {ROUNDS}", description=text, colour=GREY
    )
    embed.set_footer(text="This turn is over; the live board is below.")
    return embed


def undo_view(game_id: int, turn: int) -> discord.ui.View:
    """Only the Undo button, for the player who just scored."""
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(game_id, turn))
    return view


def final_embed(row: GameRow, game: Game) -> discord.Embed:
    """Game over: the ranking with totals and bonuses."""
    lines = []
    for standing in game.standings():
        card = game.seats[standing.seat].card
        if standing.place is None:
            lines.append(f"left: {mention(standing.player_id, standing.name)}: {standing.total}")
            continue
        medal = MEDALS.get(standing.place, f"{standing.place}.")
        extras = []
        if card.upper_bonus:
            extras.append(f"upper bonus {card.upper_bonus}")
        if card.yahtzee_bonus:
            extras.append(f"Yahtzee bonus {card.yahtzee_bonus}")
        tail = f" ({', '.join(extras)})" if extras else ""
        lines.append(
            f"{medal} {mention(standing.player_id, standing.name)}: **{standing.total}**{tail}"
        )
    winners = [s for s in game.standings() if s.place == 1]
    if len(winners) == 1:
        title = f"Game over: {shown_name(winners[0].name)} wins with {winners[0].total}!"
    elif winners:
        title = f"Game over: a {len(winners)}-way tie at {winners[0].total}!"
    else:
        title = "Game over"
    embed = discord.Embed(title=title, description="\n".join(lines), colour=GOLD)
    embed.set_image(url=f"attachment://{FINAL_FILE}")
    embed.set_footer(
        text=f"{Preset(row.preset).title} rules · Play again opens a lobby for the same players"
    )
    return embed


def final_view(game_id: int, analysis: bool = True) -> discord.ui.View:
    """Play again, and each player's Analysis."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlayAgainButton(game_id))
    if analysis:
        view.add_item(AnalysisButton(game_id))
    return view


def report_text(report: Report) -> str:
    """A player's report card in words."""
    share = report.optimal / report.decisions if report.decisions else 0.0
    lines = [
        f"Against optimal play you lost **{report.loss:.1f}** expected points over the game; "
        f"{report.optimal} of your {report.decisions} decisions ({share:.0%}) were optimal.",
    ]
    if report.costliest:
        lines.append("Your costliest decisions:")
        lines += [f"- {text}" for text in report.costliest]
    return "\n".join(lines)


def hint_text(choices: list[Choice], game: Game) -> str:
    """The best choices in plain words, with their expected final scores."""
    assert game.dice is not None
    lines = [
        f"{i}. {choice.describe()}: **{choice.value:.1f}**" for i, choice in enumerate(choices, 1)
    ]
    return (
        f"Best choices for {game.dice} (roll {game.rolls_used} of {ROLLS_PER_TURN}), with the "
        "expected final score of each under optimal play:\n" + "\n".join(lines)
    )


def ended_embed(reason: str) -> discord.Embed:
    """A board retired because the game ended early."""
    return discord.Embed(title="Yahtzee: game ended", description=reason, colour=GREY)


def undone_embed(game: Game | None = None) -> discord.Embed:
    """A next turn's message that is no longer the board: it stays (it pinged the next
    player: deleting it would leave a ghost ping) and says what happened. With ``game``, an
    Undo by its player to move; without, a move that came in while it was being posted."""
    if game is None:
        return discord.Embed(
            title="Yahtzee: board out of date",
            description="A move came in while this board was being posted (an Undo, say): "
            "the live board is above.",
            colour=GREY,
        )
    seat = game.current_seat
    return discord.Embed(
        title="Yahtzee: turn taken back",
        description=f"{mention(seat.player_id, seat.name)} took back their last scoring and "
        "plays on: the live board is above.",
        colour=GREY,
    )


def end_confirm_view(game_id: int) -> discord.ui.View:
    """The confirmation button for /yahtzee end."""
    view = discord.ui.View(timeout=None)
    view.add_item(EndConfirmButton(game_id))
    return view


# -- leaderboards ----------------------------------------------------------------------------

LEADERBOARD_FILE = "leaderboard.png"
STATS_FILE = "stats.png"


def leaderboard_embed(page: LeaderboardPage) -> discord.Embed:
    """A board's page: the image carries the table."""
    embed = discord.Embed(
        title=f"Leaderboard: {BOARDS[page.board]} ({PERIODS[page.period].lower()})", colour=GREEN
    )
    if page.players == 0:
        embed.description = "Nobody is on this board yet: finish a game to get on it."
    elif page.footer:
        embed.description = shown_name(page.footer)  # the asker's line, readable on a phone
    embed.set_image(url=f"attachment://{LEADERBOARD_FILE}")
    embed.set_footer(text="Bot opponents never count. /yahtzee stats for your own figures.")
    return embed


def share_view(kind: str, *args: str) -> discord.ui.View:
    """Only a Share button, for a private answer."""
    view = discord.ui.View(timeout=None)
    view.add_item(ShareButton(kind, *args))
    return view


def leaderboard_view(page: LeaderboardPage) -> discord.ui.View:
    """Previous and Next when the board has more than one page, and Share (the answer is
    private: Share posts the page for the channel)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ShareButton("lb", page.board, page.period, str(page.page)))
    if page.pages > 1:
        view.add_item(PageButton(page.board, page.period, page.page, "prev", page.page == 0))
        view.add_item(
            PageButton(page.board, page.period, page.page, "next", page.page >= page.pages - 1)
        )
    return view


def stats_embed(name: str, stats: PlayerStats) -> discord.Embed:
    """A player's figures on this server."""
    embed = discord.Embed(title=f"Yahtzee stats: {shown_name(name)}", colour=GREEN)
    if stats.games == 0:
        embed.description = "No finished games on this server yet."
        return embed
    embed.add_field(name="Games", value=str(stats.games))
    embed.add_field(
        name="Wins",
        value=f"{stats.wins} of {stats.multiplayer_games} ({stats.win_rate:.0%})"
        if stats.multiplayer_games
        else "no multiplayer games",
    )
    embed.add_field(name="Average", value=f"{stats.average:.1f}")
    embed.add_field(name="Best", value=str(stats.best))
    embed.add_field(name="Upper bonus", value=f"{stats.upper_bonus_rate:.0%} of games")
    embed.add_field(name="Yahtzees per game", value=f"{stats.yahtzees_per_game:.2f}")
    if stats.skill is not None:
        embed.add_field(
            name="Points left on the table",
            value=f"{stats.skill:.1f} a game on average, against optimal play",
        )
    if stats.image is not None:
        embed.set_image(url=f"attachment://{STATS_FILE}")
    return embed


TURN_LABELS = {0: "No time limit", 60: "1 minute", 120: "2 minutes", 180: "3 minutes",
               300: "5 minutes", 600: "10 minutes", 900: "15 minutes", 1800: "30 minutes",
               3600: "1 hour"}  # fmt: skip
POLICY_LABELS = {
    "scratch": ("Scratch", "Play the turn for them: roll if needed, take the lowest box"),
    "skip-seat": (
        "Skip seat",
        "As scratch, and after 2 timeouts in a row skip them until they rejoin",
    ),
}


def settings_embed(settings: GuildSettings) -> discord.Embed:
    """A server's current settings."""
    embed = discord.Embed(title="Yahtzee settings for this server", colour=GREEN)
    embed.add_field(name="Default preset", value=Preset(settings.preset).title)
    embed.add_field(
        name="Turn time limit",
        value=TURN_LABELS.get(settings.turn_seconds, f"{settings.turn_seconds} s"),
    )
    embed.add_field(name="When time runs out", value=POLICY_LABELS[settings.timeout_policy][0])
    embed.add_field(name="Games in threads", value="on" if settings.use_threads else "off")
    embed.set_footer(
        text="Changes apply to games started from now on. "
        "Half-way through a timed turn the player is reminded."
    )
    return embed


def settings_view(guild_id: int, settings: GuildSettings) -> discord.ui.View:
    """One menu per setting, and the thread toggle."""
    presets = [
        discord.SelectOption(
            label=f"Preset: {p.title}", value=p.value, default=p.value == settings.preset
        )
        for p in Preset
    ]
    limits = [
        discord.SelectOption(
            label=f"Turn limit: {label}",
            value=str(seconds),
            default=seconds == settings.turn_seconds,
        )
        for seconds, label in TURN_LABELS.items()
    ]
    policies = [
        discord.SelectOption(
            label=f"Timeout: {label}",
            value=key,
            description=text,
            default=key == settings.timeout_policy,
        )
        for key, (label, text) in POLICY_LABELS.items()
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(SettingSelect(guild_id, "preset", presets))
    view.add_item(SettingSelect(guild_id, "turn", limits))
    view.add_item(SettingSelect(guild_id, "policy", policies))
    view.add_item(ThreadsButton(guild_id, settings.use_threads))
    return view


def reset_confirm_view(guild_id: int) -> discord.ui.View:
    """The confirmation button for a leaderboard reset."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResetConfirmButton(guild_id))
    return view


# -- components ------------------------------------------------------------------------------

_DynamicButton = discord.ui.DynamicItem[discord.ui.Button[Any]]
_DynamicSelect = discord.ui.DynamicItem[discord.ui.Select[Any]]


class LobbyButton(
    _DynamicButton,
    template=r"yz:lobby:(?P<action>join|leave|start|cancel|bot-optimal|bot-casual|hints):(?P<game>\d+)",
):
    """Join, Leave, Start or Cancel on a lobby."""

    def __init__(
        self,
        action: str,
        game_id: int,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action.title(), style=style, custom_id=f"yz:lobby:{action}:{game_id}"
            )
        )
        self.action, self.game_id = action, game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> LobbyButton:
        return cls(match["action"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_lobby(interaction, self.action, self.game_id)


class DieButton(
    _DynamicButton,
    template=r"yz:die:(?P<game>\d+):(?P<turn>\d+):(?P<rolls>\d):(?P<index>[0-4])",
):
    """One die: its face as the label; click to hold or release it."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        rolls: int,
        index: int,
        face: int | None = None,
        held: bool = False,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=str(face) if face is not None else "\N{EN DASH}",
                emoji=LOCK if held else None,
                style=discord.ButtonStyle.success if held else discord.ButtonStyle.secondary,
                custom_id=f"yz:die:{game_id}:{turn}:{rolls}:{index}",
                disabled=disabled,
                row=0,
            )
        )
        self.game_id, self.turn, self.rolls, self.index = game_id, turn, rolls, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> DieButton:
        return cls(int(match["game"]), int(match["turn"]), int(match["rolls"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_hold(
            interaction, self.game_id, self.turn, self.rolls, self.index
        )


class RollButton(
    _DynamicButton,
    template=r"yz:roll:(?P<game>\d+):(?P<turn>\d+):(?P<rolls>\d)",
):
    """Roll the dice not held; the label shows the rolls left."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        rolls: int,
        left: int = ROLLS_PER_TURN,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Roll ({left} left)",
                emoji="\N{GAME DIE}",
                style=discord.ButtonStyle.primary,
                custom_id=f"yz:roll:{game_id}:{turn}:{rolls}",
                disabled=left == 0 or disabled,
                row=1,
            )
        )
        self.game_id, self.turn, self.rolls = game_id, turn, rolls

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> RollButton:
        return cls(int(match["game"]), int(match["turn"]), int(match["rolls"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_roll(interaction, self.game_id, self.turn, self.rolls)


class ScorecardButton(
    _DynamicButton,
    template=r"yz:card:(?P<game>\d+)",
):
    """The clicker's own scorecard (or the current player's, for a spectator), ephemeral."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Scorecard",
                style=discord.ButtonStyle.secondary,
                custom_id=f"yz:card:{game_id}",
                row=1,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ScorecardButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_scorecard(interaction, self.game_id)


class HintButton(_DynamicButton, template=r"yz:hint:(?P<game>\d+)"):
    """The best three choices for the player whose turn it is (ephemeral)."""

    def __init__(self, game_id: int, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label="Hint",
                emoji="\N{ELECTRIC LIGHT BULB}",
                style=discord.ButtonStyle.secondary,
                custom_id=f"yz:hint:{game_id}",
                disabled=disabled,
                row=1,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> HintButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_hint(interaction, self.game_id)


class BoxSelect(
    _DynamicSelect,
    template=r"yz:box:(?P<game>\d+):(?P<turn>\d+):(?P<rolls>\d)",
):
    """The boxes these dice may be scored in now, each with its points."""

    def __init__(
        self,
        game_id: int,
        turn: int,
        rolls: int,
        options: list[discord.SelectOption] | None = None,
        waiting: str = "Roll first, then pick a box",
    ) -> None:
        usable = bool(options)
        super().__init__(
            discord.ui.Select(
                custom_id=f"yz:box:{game_id}:{turn}:{rolls}",
                placeholder="Pick a box to score" if usable else waiting,
                options=options or [discord.SelectOption(label="Roll first", value="none")],
                disabled=not usable,
                row=2,
            )
        )
        self.game_id, self.turn, self.rolls = game_id, turn, rolls

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> BoxSelect:
        return cls(int(match["game"]), int(match["turn"]), int(match["rolls"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        box = values[0] if values else ""
        await controller(interaction).on_score(
            interaction, self.game_id, self.turn, self.rolls, box
        )


class UndoButton(
    _DynamicButton,
    template=r"yz:undo:(?P<game>\d+):(?P<turn>\d+)",
):
    """Take back the scoring shown on this message, until the next roll."""

    def __init__(self, game_id: int, turn: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Undo",
                emoji="\N{LEFTWARDS ARROW WITH HOOK}",
                style=discord.ButtonStyle.secondary,
                custom_id=f"yz:undo:{game_id}:{turn}",
            )
        )
        self.game_id, self.turn = game_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> UndoButton:
        return cls(int(match["game"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_undo(interaction, self.game_id, self.turn)


class AnalysisButton(_DynamicButton, template=r"yz:analysis:(?P<game>\d+)"):
    """A player's report card for the finished game (ephemeral)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Analysis",
                emoji="\N{BAR CHART}",
                style=discord.ButtonStyle.secondary,
                custom_id=f"yz:analysis:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> AnalysisButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_analysis(interaction, self.game_id)


class PlayAgainButton(
    _DynamicButton,
    template=r"yz:again:(?P<game>\d+)",
):
    """Open a new lobby with the same players."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Play again",
                style=discord.ButtonStyle.success,
                custom_id=f"yz:again:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> PlayAgainButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_play_again(interaction, self.game_id)


class EndConfirmButton(
    _DynamicButton,
    template=r"yz:end:(?P<game>\d+)",
):
    """Confirms /yahtzee end."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="End the game",
                style=discord.ButtonStyle.danger,
                custom_id=f"yz:end:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> EndConfirmButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_end_confirmed(interaction, self.game_id)


class PageButton(
    _DynamicButton,
    template=r"yz:lb:(?P<board>[a-z]+):(?P<period>[a-z]+):(?P<page>\d+):(?P<step>prev|next)",
):
    """Previous or Next on a leaderboard."""

    def __init__(
        self, board: str, period: str, page: int, step: str, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label="Previous" if step == "prev" else "Next",
                style=discord.ButtonStyle.secondary,
                custom_id=f"yz:lb:{board}:{period}:{page}:{step}",
                disabled=disabled,
            )
        )
        self.board, self.period, self.page, self.step = board, period, page, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> PageButton:
        return cls(match["board"], match["period"], int(match["page"]), match["step"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        target = self.page - 1 if self.step == "prev" else self.page + 1
        await controller(interaction).on_page(interaction, self.board, self.period, target)


class ShareButton(
    _DynamicButton,
    template=r"yz:share:(?P<kind>lb|stats):(?P<args>[a-z0-9]+(?::[a-z0-9]+)*)",
):
    """Share on a private leaderboard or stats answer: post it for the whole channel.
    ``yz:share:lb:<board>:<period>:<page>`` or ``yz:share:stats:<user id>``."""

    def __init__(self, kind: str, *args: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Share",
                emoji="\N{SPEAKING HEAD IN SILHOUETTE}",
                style=discord.ButtonStyle.secondary,
                custom_id=":".join(("yz:share", kind, *args)),
            )
        )
        self.kind, self.args = kind, args

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ShareButton:
        return cls(match["kind"], *match["args"].split(":"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await controller(interaction).on_share(interaction, self.kind, self.args)


class ResetConfirmButton(_DynamicButton, template=r"yz:lbreset:(?P<guild>\d+)"):
    """Confirms /yahtzee-admin reset-leaderboard."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Reset the leaderboard",
                style=discord.ButtonStyle.danger,
                custom_id=f"yz:lbreset:{guild_id}",
            )
        )
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ResetConfirmButton:
        return cls(int(match["guild"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from cogs.admin import Admin

        cog = interaction.client.get_cog("Admin")
        assert isinstance(cog, Admin)
        await cog.on_reset_confirmed(interaction, self.guild_id)


def _admin(interaction: discord.Interaction[Any]) -> Any:
    from cogs.admin import Admin

    cog = interaction.client.get_cog("Admin")
    assert isinstance(cog, Admin)
    return cog


class SettingSelect(
    _DynamicSelect, template=r"yz:set:(?P<guild>\d+):(?P<field>preset|turn|policy)"
):
    """A server setting's menu."""

    def __init__(
        self, guild_id: int, field: str, options: list[discord.SelectOption] | None = None
    ) -> None:
        rows = {"preset": 0, "turn": 1, "policy": 2}
        super().__init__(
            discord.ui.Select(
                custom_id=f"yz:set:{guild_id}:{field}",
                options=options or [discord.SelectOption(label="-", value="-")],
                row=rows[field],
            )
        )
        self.guild_id, self.field = guild_id, field

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> SettingSelect:
        return cls(int(match["guild"]), match["field"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        value = self.item.values[0] if self.item.values else ""
        await _admin(interaction).on_setting(interaction, self.guild_id, self.field, value)


class ThreadsButton(_DynamicButton, template=r"yz:set:(?P<guild>\d+):threads"):
    """Turns thread mode on or off."""

    def __init__(self, guild_id: int, on: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Games in threads: {'on' if on else 'off'}",
                style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                custom_id=f"yz:set:{guild_id}:threads",
                row=3,
            )
        )
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> ThreadsButton:
        return cls(int(match["guild"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _admin(interaction).on_setting(interaction, self.guild_id, "threads", "")


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    DieButton,
    RollButton,
    ScorecardButton,
    HintButton,
    BoxSelect,
    UndoButton,
    PlayAgainButton,
    AnalysisButton,
    EndConfirmButton,
    PageButton,
    ShareButton,
    ResetConfirmButton,
    SettingSelect,
    ThreadsButton,
)

"""What the bot's messages say and show: embeds, files, and the views that hold the
components (``cogs.ui.components``). Pure builders: nothing here sends anything."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.engine import ROLLS_PER_TURN, ROUNDS, YAHTZEE_POINTS, BoxOption, Category, Game, Preset
from bot.games import (
    Board,
    Card,
    DailyEntry,
    GameView,
    GuildSettings,
    Report,
    Scored,
    is_bot,
    player_id,
)
from bot.games.leaderboards import (
    LEADERBOARD_KINDS,
    PERIODS,
    LeaderboardPage,
    PlayerStats,
    count_of,
    format_figure,
)
from bot.games.replay import Turn
from bot.render.text_card import card_text, code_block
from bot.strategy import supports
from bot.strategy.analyst import BoxHint
from bot.strategy.decisions import Choice, count_word
from bot.strategy.winning import WinHint

from . import answers
from .components import (
    AnalysisButton,
    BoxSelect,
    Controls,
    DieButton,
    EndConfirmButton,
    HintButton,
    Layout,
    LobbyButton,
    PageButton,
    Payload,
    PlayAgainButton,
    ReplayButton,
    ResetConfirmButton,
    RollButton,
    ScorecardButton,
    SettingSelect,
    ShareButton,
    ThreadsButton,
    UndoButton,
    action_row,
)
from .emojis import DiceFaces

BOARD_FILE = "board.png"
FINAL_FILE = "final.png"
CARD_FILE = "scorecard.png"
GREEN = discord.Colour(0x24593B)
GOLD = discord.Colour(0xD69712)
GREY = discord.Colour(0x4F545C)
NAME_LIMIT = 40
#: Embeddings, overrides, isolates and marks of the bidi algorithm, and the Arabic letter mark.
BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")
MEDALS = {1: "\N{FIRST PLACE MEDAL}", 2: "\N{SECOND PLACE MEDAL}", 3: "\N{THIRD PLACE MEDAL}"}


def shown_name(name: str) -> str:
    """A player's name as text in a message: its markdown and mention syntax made inert
    (``**x``, a backtick, ``||`` or ``@everyone`` in a name shows as typed), bidi controls
    dropped (an override would flip the rest of the line), blank names shown as "a player",
    and at most ``NAME_LIMIT`` characters (eight long names must fit an embed field)."""
    text = " ".join(BIDI_CONTROLS.sub("", name).split()) or "a player"
    if len(text) > NAME_LIMIT:
        text = text[: NAME_LIMIT - 1].rstrip() + "\N{HORIZONTAL ELLIPSIS}"
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def mention(player: str, name: str = "") -> str:
    """How a message names a player: a person by name in bold (a mention would read
    "@Ann (Ann)", and in an embed it notifies nobody anyway), a computer with its robot."""
    if is_bot(player):
        return f"\N{ROBOT FACE} **{shown_name(name or 'Computer')}**"
    return f"**{shown_name(name)}**" if name else f"<@{player}>"


def ping(player: str, name: str = "") -> str:
    """The start of a message that notifies a person (their turn, a reminder): the bare
    mention; a computer player is only named."""
    return mention(player, name) if is_bot(player) else f"<@{player}>"


def board_files(board: Board) -> list[discord.File]:
    """The board's picture as the message's only attachment (none in a game without
    pictures: editing with this list also drops an old picture)."""
    return [png(board.image, BOARD_FILE)] if board.image is not None else []


async def send_card(interaction: discord.Interaction[Any], card: Card) -> None:
    """A scorecard, only for the asker: as text, and as a picture where files may go."""
    files = [png(card.image, CARD_FILE)] if card.image is not None else []
    await answers.send(
        interaction,
        f"**{shown_name(card.name)}**\n{code_block(card.text)}",
        files=files,
        ephemeral=True,
    )


def png(data: bytes, name: str) -> discord.File:
    """A PNG attachment."""
    return discord.File(io.BytesIO(data), filename=name)


# -- lobby -----------------------------------------------------------------------------------


def lobby_embed(row: GameView) -> discord.Embed:
    """The lobby: players so far, the host, the preset, and what to do."""
    preset = row.preset
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
        f"`#{i}` {mention(player_id(uid), name)}" + (" (host)" if uid == row.host_id else "")
        for i, (uid, name) in enumerate(row.players, 1)
    )
    embed.add_field(
        name=f"Players ({len(row.players)}/8)", value=seated or "nobody yet", inline=False
    )
    embed.set_footer(text=f"{preset.title} rules (/yahtzee rules tells them)")
    return embed


def invitation(host: str, invited: list[tuple[int, str]]) -> str | None:
    """Play again's one ping: who is invited to the rematch and how to take a seat."""
    if not invited:
        return None
    who = " ".join(f"<@{uid}>" for uid, _ in invited)
    return f"{who}: {shown_name(host)} wants a rematch. Press **Join** to take a seat."


def lobby_layout(row: GameView, note: str | None = None, controls: bool = True) -> Layout:
    """The lobby as a Components V2 message (readable with embeds turned off): its words
    (``lobby_embed``) and, while it is open, its buttons, in one container. ``note``: why
    a lobby message was retired (closed, moved, its game could not start), in place of what
    to do, greyed and without buttons."""
    embed = lobby_embed(row)
    if note is not None:
        embed.description = note
        embed.colour = GREY
        controls = False
    return layout_of(embed, *(lobby_rows(row) if controls else []))


def lobby_edit(row: GameView, note: str | None = None) -> dict[str, Any]:
    """The edit that shows the lobby (``lobby_layout``) on its message. It clears content,
    embeds and files, so a lobby posted as an embed before the V2 lobby becomes one."""
    return {"content": None, "embed": None, "attachments": [], "view": lobby_layout(row, note)}


def lobby_rows(row: GameView) -> list[discord.ui.ActionRow[Any]]:
    """Join, Leave, Start and Cancel, the computer players and the switches while the lobby
    is open (none once it closes): a row each, since on a phone a row of five wraps anywhere
    and these break where the meaning does."""
    if row.status != "lobby":
        return []
    rows: list[list[discord.ui.Item[Any]]] = [[], [], []]
    for action, label, style, line in (
        ("join", "Join", discord.ButtonStyle.success, 0),
        ("leave", "Leave", discord.ButtonStyle.secondary, 0),
        ("start", "Start", discord.ButtonStyle.primary, 0),
        ("cancel", "Cancel", discord.ButtonStyle.danger, 0),
        ("bot-optimal", "Add bot (Optimal)", discord.ButtonStyle.secondary, 1),
        ("bot-casual", "Add bot (Casual)", discord.ButtonStyle.secondary, 1),
        ("bot-winning", "Add bot (To win)", discord.ButtonStyle.secondary, 1),
        ("hints", f"Hints: {'on' if row.hints else 'off'}", discord.ButtonStyle.secondary, 2),
    ):
        rows[line].append(LobbyButton(action, row.id, label, style).item)
    bots = [name for uid, name in row.players if uid < 0]
    if bots:  # the host takes the bot seated last back out
        label = f"Remove {bots[-1]}"[:80]
        rows[2].append(LobbyButton("unseat", row.id, label, discord.ButtonStyle.secondary).item)
    return [discord.ui.ActionRow(*items) for items in rows]


def layout_of(embed: discord.Embed, *rows: discord.ui.Item[Any]) -> Layout:
    """An embed's words as a Components V2 message in one container of its colour (the
    title as a heading, each field's name in bold above its value, the footer small), with
    ``rows`` of controls at the bottom."""
    parts: list[discord.ui.Item[Any]] = []
    if embed.title:
        parts.append(discord.ui.TextDisplay(f"## {embed.title}"))
    if embed.description:
        parts.append(discord.ui.TextDisplay(embed.description))
    parts += [discord.ui.TextDisplay(f"**{f.name}**\n{f.value}") for f in embed.fields]
    if embed.footer.text:
        parts.append(discord.ui.TextDisplay(f"-# {embed.footer.text}"))
    colour = embed.colour if isinstance(embed.colour, discord.Colour) else None
    return Layout(discord.ui.Container(*parts, *rows, accent_colour=colour))


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


#: Dice as numbers: what the builders use where no emojis are given.
NUMBERS = DiceFaces()


def board_embed(board: Board, faces: DiceFaces = NUMBERS) -> discord.Embed:
    """The live board's embed; the image is attached as board.png."""
    game = board.game
    assert game is not None
    seat = game.current_seat
    who = mention(seat.player_id, seat.name)
    if is_bot(seat.player_id):
        text = bot_turn_text(game, who, faces)
    elif game.dice is None:
        text = f"{who}, it's your turn: press **Roll**."
    elif game.rolls_left == 0:
        text = f"{who}: that was roll {ROLLS_PER_TURN} of {ROLLS_PER_TURN}. Pick a box to score."
    else:
        text = (
            f"{who}: roll {game.rolls_used} of {ROLLS_PER_TURN}. Click dice to hold them, then "
            "**Roll** again, or pick a box to score now."
        )
    deadline = board.row.deadline
    if deadline is not None:  # a live countdown in every client's own time
        text += f"\n\N{ALARM CLOCK} Time runs out <t:{int(deadline.timestamp())}:R>."
    embed = discord.Embed(
        title=f"Yahtzee: round {game.round} of {ROUNDS}", description=text, colour=GREEN
    )
    embed.add_field(name="Scores", value=scores_field(game), inline=False)
    if board.image is not None:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    elif not board.row.pictures:  # no pictures here: the card as text, and the dice in words
        if game.dice is not None:
            held = game.held if game.rolls_left > 0 else (False,) * len(game.held)
            embed.add_field(name="Dice", value=faces.text(game.dice, held), inline=False)
        embed.add_field(name="Scorecard", value=code_block(card_text(game)), inline=False)
    # (before a turn's first roll a game with pictures shows none: the roll brings it)
    embed.set_footer(text=f"{game.preset.title} rules · /yahtzee rules · /yahtzee scorecard")
    return embed


def bot_turn_text(game: Game, who: str, faces: DiceFaces = NUMBERS) -> str:
    """A computer player's turn so far, in words: what it kept and what it rolled."""
    dice = game.dice
    if dice is None:
        return f"{who} is playing its turn: rolling."
    shown = faces.text(dice)
    if game.rolls_used == 1:
        what = f"rolled {shown}"
    else:
        kept = sorted(face for face, held in zip(dice, game.held, strict=True) if held)
        rolled = len(dice) - len(kept)
        what = (
            f"kept {faces.text(kept)} and rolled {count_word(rolled)}: {shown}"
            if kept
            else f"rolled all five again: {shown}"
        )
    return f"{who} is playing its turn. Roll {game.rolls_used} of {ROLLS_PER_TURN}: {what}."


def box_label(option: BoxOption) -> tuple[str, str | None]:
    """A select option's label and description for a box the dice may be scored in."""
    if option.bonus_turn:
        return f"Yahtzee bonus: +{option.points}", "Takes the bonus; no box is filled this turn"
    description = None
    if option.joker:
        description = "Joker: forced here" if option.forced else "Joker"
        if option.bonus:
            description += f", +{option.bonus} Yahtzee bonus"
    return f"{option.category.label}: {option.points}", description


def box_options(
    game: Game, best: BoxHint | None = None, faces: DiceFaces = NUMBERS
) -> list[discord.SelectOption]:
    """The menu of boxes: those that score first, then the scratches (0 points, said once),
    the hint's best box marked: with a star when scoring now is the best move, else as the
    best box *if you stop now* (the hint would keep dice and roll)."""
    scoring: list[discord.SelectOption] = []
    scratches: list[discord.SelectOption] = []
    for choice in game.choices():
        label, description = box_label(choice)
        category = choice.category
        if best is not None and category is best.box:
            mark = (
                "\N{WHITE MEDIUM STAR} Best move: score here now (hint)"
                if best.stop_now
                else "Best box if you stop now; rolling again is better (hint)"
            )
            description = f"{mark}; {description}" if description else mark
        option = discord.SelectOption(
            label=label, value=category.value, description=description,
            emoji=faces.emoji(category.face) if category.face is not None else None,
        )  # fmt: skip
        (scoring if choice.scores else scratches).append(option)
    if scratches:
        note = "Scratch: 0 points"
        if len(scratches) > 1:
            note += " here and in the boxes below"
        first = scratches[0]
        first.description = f"{note}; {first.description}" if first.description else note
    for option in scoring + scratches:  # Discord's limit for a description
        if option.description and len(option.description) > 100:
            option.description = option.description[:99] + "\N{HORIZONTAL ELLIPSIS}"
    return scoring + scratches


def board_view(board: Board, faces: DiceFaces = NUMBERS) -> Payload:
    """Five die buttons; Roll and Scorecard (and Undo, Hint); the select of legal boxes."""
    game = board.game
    assert game is not None
    gid, turn, rolls = board.row.id, game.turn_number, game.rolls_used
    computer = is_bot(game.current_player_id)  # its turn: only the Scorecard is for people
    can_hold = game.dice is not None and game.rolls_left > 0 and not computer
    holding = game.rolls_left > 0  # after the last roll a hold means nothing: plain dice
    shown = game.dice if game.dice is not None else (None,) * 5
    dice = [
        DieButton.payload(
            gid, turn, rolls, i, shown[i], holding and game.held[i], not can_hold, faces
        )
        for i in range(5)
    ]
    controls: list[Mapping[str, Any]] = [
        RollButton.payload(gid, turn, rolls, game.rolls_left, disabled=computer),
        ScorecardButton(gid).item.to_component_dict(),
    ]
    if board.row.daily is not None and game.undo_player_id is not None:
        # a private board is also its scoring's summary: the Undo is on it, until the roll
        controls.append(UndoButton(gid, turn - 1).item.to_component_dict())
    if board.row.hints:
        controls.append(HintButton(gid, disabled=computer).item.to_component_dict())
    options = [] if computer else box_options(game, board.best_box, faces)
    waiting = "The computer is playing its turn" if computer else "Roll first, then pick a box"
    menu = BoxSelect.payload(gid, turn, rolls, options, waiting)
    return Payload([action_row(*dice), action_row(*controls), action_row(menu)])


def summary_embed(
    scored: Scored, timed_out: bool = False, away: bool = False, faces: DiceFaces = NUMBERS
) -> discord.Embed:
    """A finished turn, in text only: who scored what. Its picture goes (it showed the dice
    before the scoring, and a game's channel is read on phones): edit it in with
    ``attachments=[]``, which also keeps Discord from showing the old picture loose."""
    result = scored.result
    if result.bonus_turn:
        what = f"took a **Yahtzee bonus** (+{result.points}) with {faces.text(result.dice)}"
    else:
        what = (
            f"scored **{result.points}** in **{result.category.label}** "
            f"with {faces.text(result.dice)}"
        )
        if result.bonus:
            what += f", plus a **+{result.bonus}** Yahtzee bonus"
    text = f"{mention(result.player_id, scored.scorer_name)} {what}."
    if (
        result.bonus
        or result.bonus_turn
        or (result.category is Category.YAHTZEE and result.points >= YAHTZEE_POINTS)
    ):  # a Yahtzee scored as one, or its bonus; five 1s put in Ones are no party
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
    view = Controls()
    view.add_item(UndoButton(game_id, turn))
    return view


def final_layout(
    row: GameView,
    game: Game,
    picture: bool = True,
    daily: DailyEntry | None = None,
    said: str | None = None,
) -> Layout:
    """Game over, as a Components V2 message in one container: the title, the ranking with
    totals and bonuses (a daily challenge's score beside the Optimal bot's on the same
    dice), the final picture, the cards as text (for screen readers, and in place of the
    picture where the bot may not attach files), and Play again (a daily: Replay) with each
    player's Analysis. ``said``: a line above it all (the last scoring, on a private board)."""
    lines = []
    if daily is not None:
        lines.append(daily_line(daily))
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
    if len(game.seats) == 1:  # a solo game, a daily challenge's try: nobody to beat
        title = f"Game over: {shown_name(game.seats[0].name)} scored {game.seats[0].card.total}!"
    elif len(winners) == 1:
        title = f"Game over: {shown_name(winners[0].name)} wins with {winners[0].total}!"
    elif winners:
        title = f"Game over: a {len(winners)}-way tie at {winners[0].total}!"
    else:
        title = "Game over"
    after = (
        "Replay tells the game turn by turn"
        if row.daily is not None
        else "Play again opens a lobby for the same players"
    )
    parts: list[discord.ui.Item[Any]] = []
    if said:
        parts.append(discord.ui.TextDisplay(said))
    parts += [discord.ui.TextDisplay(f"## {title}"), discord.ui.TextDisplay("\n".join(lines))]
    if picture:
        parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(attachment(FINAL_FILE))))
    parts += [
        discord.ui.TextDisplay(code_block(card_text(game))),
        discord.ui.TextDisplay(f"-# {row.preset.title} rules \N{MIDDLE DOT} {after}"),
        final_buttons(row.id, analysis=supports(row.preset), daily=row.daily is not None),
    ]
    return Layout(discord.ui.Container(*parts, accent_colour=GOLD))


def final_buttons(
    game_id: int, analysis: bool = True, daily: bool = False
) -> discord.ui.ActionRow[Any]:
    """Play again (a daily challenge: its Replay instead), and each player's Analysis."""
    buttons: list[discord.ui.Item[Any]] = [
        (ReplayButton(game_id) if daily else PlayAgainButton(game_id)).item
    ]
    if analysis:
        buttons.append(AnalysisButton(game_id).item)
    return discord.ui.ActionRow(*buttons)


def daily_intro(day: str) -> str:
    """The line above a daily challenge's private board."""
    return (
        f"\N{CALENDAR} Your daily challenge for {day}: the same dice for everyone today, "
        "whatever they keep, so only you see this board. One try; the score is compared with "
        "the Optimal bot's on the same dice, and only the result is posted in the channel. "
        "Lost this message? `/yahtzee daily` shows it again."
    )


def daily_result_layout(row: GameView, game: Game, entry: DailyEntry | None) -> Layout:
    """What the channel sees of a daily challenge, as a Components V2 message: the result
    alone (the card would tell others which boxes the day's dice fill), and Replay."""
    seat = game.seats[0]
    parts: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay(
            f"## Daily challenge {row.daily}: {shown_name(seat.name)} scored {seat.card.total}!"
        )
    ]
    if entry is not None:
        parts.append(discord.ui.TextDisplay(daily_line(entry)))
    parts += [
        discord.ui.TextDisplay(
            "-# Play yours with /yahtzee daily \N{MIDDLE DOT} Replay opens to everyone when the "
            "day is over"
        ),
        final_buttons(row.id, analysis=False, daily=True),
    ]
    return Layout(discord.ui.Container(*parts, accent_colour=GOLD))


def daily_line(entry: DailyEntry) -> str:
    """A try at a daily challenge against the Optimal bot on the same dice."""
    head = f"\N{CALENDAR} Daily challenge {entry.day}"
    if entry.score is None:
        return f"{head}: not finished."
    if entry.optimal is None:
        return f"{head}: **{entry.score}** (the Optimal bot's score is not ready yet)."
    gap = entry.score - entry.optimal
    versus = "level with" if gap == 0 else f"{abs(gap)} {'above' if gap > 0 else 'below'}"
    return (
        f"{head}: **{entry.score}**, {versus} the Optimal bot, which scored "
        f"**{entry.optimal}** on the same dice."
    )


def daily_board_embed(entries: list[DailyEntry], day: str, everywhere: bool) -> discord.Embed:
    """Today's daily challenge board: rank, player, score, and the Optimal bot's score."""
    where = "every server" if everywhere else "this server"
    if not entries:
        text = "Nobody has finished today's challenge yet: `/yahtzee daily` to be the first."
    else:
        text = "\n".join(
            f"{MEDALS.get(rank, f'{rank}.')} {shown_name(e.name)}: **{e.score}**"
            for rank, e in enumerate(entries, 1)
        )
        if entries[0].optimal is not None:
            text += f"\nThe Optimal bot scored **{entries[0].optimal}** on today's dice."
    return discord.Embed(title=f"Daily challenge {day}: {where}", description=text, colour=GOLD)


def replay_text(turns: list[Turn]) -> str:
    """A game told turn by turn: each roll (what was kept, what it showed), then the box."""
    lines = []
    for n, turn in enumerate(turns, 1):
        rolls = []
        for kept, shown in turn.rolls:
            keep = f"kept {'-'.join(map(str, kept))}, " if kept else ""
            rolls.append(f"{keep}rolled {shown}")
        box = turn.box.label if turn.box is not None else "?"
        bonus = f" +{turn.bonus}" if turn.bonus else ""
        timer = " (time ran out)" if turn.by == "timeout" else ""
        scored = f"{box} {turn.points}{bonus}{timer}"
        lines.append(f"{n}. {'; '.join(rolls)} \N{RIGHTWARDS ARROW} {scored}")
    return "\n".join(lines) or "No turn was played."


def report_text(report: Report) -> str:
    """A player's report card in words."""
    share = report.optimal / report.decisions if report.decisions else 0.0
    well = (
        f"**{report.optimal} of your {count_of(report.decisions, 'decision')}** ({share:.0%}) "
        f"{'was' if report.decisions == 1 else 'were'} exactly what optimal play would have done."
    )
    if report.left:  # a game left midway is no perfect game, however well it went
        well = f"You left this game before it ended; this covers the moves you made. {well}"
    elif report.decisions and report.optimal == report.decisions:
        well = f"\N{GLOWING STAR} {well} A perfect game!"
    lines = [
        well,
        f"Points left on the table: **{report.loss:.1f}** expected points over the game, "
        "against optimal play.",
    ]
    if report.costliest:
        lines.append("Your costliest decisions:")
        lines += [f"- {text}" for text in report.costliest]
    return "\n".join(lines)


def hint_text(
    choices: list[Choice], game: Game, to_win: WinHint | None = None, to_win_off: bool = False
) -> str:
    """The best choices in plain words, with their expected final scores; with someone to
    beat, also the move with the best chance to win when it is another one (and its chance
    reads differently from choice 1's), or, where that advice cannot be had on this host
    (``to_win_off``), that it is off."""
    assert game.dice is not None
    lines = [
        f"{i}. {choice.describe()}: **{choice.value:.1f}**" for i, choice in enumerate(choices, 1)
    ]
    text = (
        f"Best choices for {game.dice} (roll {game.rolls_used} of {ROLLS_PER_TURN}), with the "
        "expected final score of each under optimal play:\n" + "\n".join(lines)
    )
    if to_win is None:
        if to_win_off:
            text += (
                "\nAdvice on your chance to beat the others is off on this host (it lacks the "
                "memory to prepare it); the choices above are for the most points."
            )
        return text
    rival = shown_name(to_win.rival)
    # Another move is named only when its chance reads differently: "47% (choice 1: 47%)"
    # would send a player after a difference the words cannot show.
    if to_win.differs and percent(to_win.choice.value) != percent(to_win.points_choice_chance):
        move = to_win.choice.describe()
        return text + (
            f"\nTo beat {rival}, though: {move[:1].lower()}{move[1:]}, with "
            f"**{percent(to_win.choice.value)}** to finish ahead (choice 1: "
            f"{percent(to_win.points_choice_chance)})."
        )
    if to_win.choice.value <= 0:
        return text + f"\nNo move can still beat {rival}: choice 1 is for the points."
    return text + (
        f"\nChoice 1 is also your best chance to beat {rival}: "
        f"**{percent(to_win.choice.value)}** to finish ahead."
    )


def percent(chance: float) -> str:
    """A chance in words a person reads at a glance, with its own hedge: "about 3%", "less
    than 1%", "more than 99%", and "no chance" or "certain" only when it is exactly so."""
    if chance <= 0:
        return "no chance"
    if chance >= 1:
        return "certain"
    if chance < 0.005:
        return "less than 1%"
    if chance > 0.995:
        return "more than 99%"
    return f"about {chance:.0%}"


#: What a board (or lobby) left behind by /yahtzee board says.
BOARD_MOVED = "This board moved to the bottom of the channel."


def ended_embed(reason: str) -> discord.Embed:
    """A board retired because the game ended early."""
    return discord.Embed(title="Yahtzee: game ended", description=reason, colour=GREY)


def moved_on_embed(finished: bool = False) -> discord.Embed:
    """A board the game left behind (a restart, a repair): it says so, instead of still
    asking someone to roll without buttons to do it."""
    text = (
        "This game is over: the final scorecard is below."
        if finished
        else "The game moved on: the live board is below."
    )
    return discord.Embed(title="Yahtzee: board out of date", description=text, colour=GREY)


def left_embed(name: str) -> discord.Embed:
    """The board of a player who left during their own turn (``name`` already made inert)."""
    return discord.Embed(
        title="Yahtzee: a player left", description=f"**{name}** left the game.", colour=GREY
    )


def waiting_embed() -> discord.Embed:
    """A next turn's board that an Undo took back: it becomes that board again when the
    scoring is made anew (or goes, if the game takes another turn)."""
    return discord.Embed(
        title="Yahtzee: a scoring was taken back",
        description="The last scoring was undone: the board above is live again. "
        "This message shows the next turn when the scoring is made anew.",
        colour=GREY,
    )


def end_confirm_view(game_id: int) -> discord.ui.View:
    """The confirmation button for /yahtzee end."""
    view = Controls()
    view.add_item(EndConfirmButton(game_id))
    return view


# -- leaderboards ----------------------------------------------------------------------------

LEADERBOARD_FILE = "leaderboard.png"
STATS_FILE = "stats.png"


#: What an empty board says: why nobody is on it, since a game was maybe just played.
EMPTY_BOARD = {
    "high": "Nobody is on this board yet: finish a game to get on it",
    "wins": "Nobody has won a game against another seat yet (a computer's win, or a solo "
    "game, puts nobody on this board)",
    "average": "Nobody has the 5 finished games this board needs yet",
    "yahtzees": "Nobody has scored a Yahtzee yet",
}


LEADERBOARD_FOOTER = "Bot opponents never count. /yahtzee stats for your own figures."


def leaderboard_layout(
    page: LeaderboardPage, picture: bool = True, shared_by: str | None = None
) -> Layout:
    """A board's page as a Components V2 message: its title, the table's picture (without
    ``picture``, where the bot may not attach files, the page's lines as text), the asker's
    own line, and in the same container Share, Previous and Next (a page ``shared_by``
    someone is for reading: no buttons)."""
    title = f"## Leaderboard: {LEADERBOARD_KINDS[page.kind]} ({PERIODS[page.period].lower()})"
    parts: list[discord.ui.Item[Any]] = []
    if shared_by is not None:
        parts.append(discord.ui.TextDisplay(f"-# Shared by {shared_by}"))
    parts.append(discord.ui.TextDisplay(title))
    lines: list[str] = []
    if picture:
        parts.append(
            discord.ui.MediaGallery(discord.MediaGalleryItem(attachment(LEADERBOARD_FILE)))
        )
    else:
        lines += [
            f"`{r.rank}.` {mention(player_id(r.user_id), r.name or 'a player')}: "
            f"**{format_figure(page.kind, r.figure)}** in {count_of(r.games, 'game')}"
            for r in page.rows
        ]
        if page.pages > 1:
            lines.append(f"Page {page.page + 1} of {page.pages}")
    if page.players == 0:
        lines.append(EMPTY_BOARD[page.kind] + ("" if page.period == "all" else " in this period"))
    elif page.footer:
        lines.append(shown_name(page.footer))  # the asker's line, readable on a phone
    if lines:
        parts.append(discord.ui.TextDisplay("\n".join(lines)))
    parts.append(discord.ui.TextDisplay(f"-# {LEADERBOARD_FOOTER}"))
    if shared_by is None:
        buttons: list[discord.ui.Item[Any]] = [
            ShareButton("lb", f"{page.kind}:{page.period}:{page.page}").item
        ]
        if page.pages > 1:
            buttons += [
                PageButton(page.kind, page.period, page.page, "prev", page.page == 0).item,
                PageButton(
                    page.kind, page.period, page.page, "next", page.page >= page.pages - 1
                ).item,
            ]
        parts.append(discord.ui.ActionRow(*buttons))
    return Layout(discord.ui.Container(*parts, accent_colour=GREEN))


def leaderboard_files(page: LeaderboardPage, picture: bool = True) -> list[discord.File]:
    """The page's picture, or nothing where files may not go."""
    return [png(page.image, LEADERBOARD_FILE)] if picture else []


def attachment(name: str) -> str:
    """How a message's component shows one of its own attached files."""
    return f"attachment://{name}"


def stats_layout(
    name: str, stats: PlayerStats, user_id: int, shared_by: str | None = None
) -> Layout:
    """A player's figures on this server as a Components V2 message: the figures as text,
    the chart beside them, and Share in the same container (a copy ``shared_by`` someone
    for the channel has none)."""
    parts: list[discord.ui.Item[Any]] = []
    if shared_by is not None:
        parts.append(discord.ui.TextDisplay(f"-# Shared by {shared_by}"))
    parts.append(discord.ui.TextDisplay(f"## Yahtzee stats: {shown_name(name)}"))
    if stats.games == 0:
        parts.append(
            discord.ui.TextDisplay(
                f"{shown_name(name)} has no finished game on this server yet (a game left "
                "before its end does not count)."
            )
        )
    else:
        figures = [
            ("Games", str(stats.games)),
            (
                "Wins",
                f"{stats.wins} of {stats.multiplayer_games} ({stats.win_rate:.0%})"
                if stats.multiplayer_games
                else "no multiplayer games",
            ),
            ("Average", f"{stats.average:.1f}"),
            ("Best", str(stats.best)),
            ("Upper bonus", f"{stats.upper_bonus_rate:.0%} of games"),
            ("Yahtzees per game", f"{stats.yahtzees_per_game:.2f}"),
        ]
        if stats.skill is not None:
            figures.append(
                (
                    "Points left on the table",
                    f"{stats.skill:.1f} a game on average, against optimal play",
                )
            )
        parts.append(
            discord.ui.TextDisplay("\n".join(f"**{label}**: {value}" for label, value in figures))
        )
        if stats.image is not None:
            parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(attachment(STATS_FILE))))
    if shared_by is None:
        parts.append(discord.ui.ActionRow(ShareButton("stats", str(user_id)).item))
    return Layout(discord.ui.Container(*parts, accent_colour=GREEN))


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
    embed.add_field(
        name="First roll made for the player",
        value="on (a player may choose otherwise: /yahtzee autoroll)"
        if settings.auto_roll
        else "off (a player may choose otherwise: /yahtzee autoroll)",
    )
    embed.set_footer(
        text="Changes apply to games started from now on (the first roll made for the player: "
        "from the next turn on, in running games too). Half-way through a timed turn the "
        "player is reminded."
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
    view = Controls()
    view.add_item(SettingSelect(guild_id, "preset", presets))
    view.add_item(SettingSelect(guild_id, "turn", limits))
    view.add_item(SettingSelect(guild_id, "policy", policies))
    view.add_item(ThreadsButton(guild_id, on=settings.use_threads))
    view.add_item(ThreadsButton(guild_id, "autoroll", on=settings.auto_roll))
    return view


def reset_confirm_view(guild_id: int) -> discord.ui.View:
    """The confirmation button for a leaderboard reset."""
    view = Controls()
    view.add_item(ResetConfirmButton(guild_id))
    return view

"""What the bot's messages say and show: embeds, files, and the views that hold the
components (``cogs.ui.components``). Pure builders: nothing here sends anything."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.engine import (
    MAX_SEATS,
    ROLLS_PER_TURN,
    ROUNDS,
    YAHTZEE_POINTS,
    BoxOption,
    Category,
    Game,
    Preset,
)
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
    LeaderboardPage,
    PlayerStats,
    format_figure,
)
from bot.games.replay import Turn
from bot.i18n import LANGUAGE_NAMES, Lang
from bot.i18n.words import N_
from bot.render.text_card import card_text, code_block
from bot.strategy import supports
from bot.strategy.analyst import BoxHint
from bot.strategy.decisions import Choice
from bot.strategy.winning import WinHint

from . import answers
from .components import (
    AnalysisButton,
    BoxSelect,
    CardSelect,
    Controls,
    DieButton,
    EndConfirmButton,
    HintButton,
    Layout,
    LeaveConfirmButton,
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
from .language import private, public

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
    (``**x``, a backtick, ``||`` or ``@everyone`` in a name shows as typed), and Discord's
    angle brackets too (``<t:0:R>``, ``<#id>``, ``</yahtzee start:1>`` would show as a
    time, a channel or a command: a zero-width space after each ``<``, as escape_mentions
    puts after an ``@``), bidi controls dropped (an override would flip the rest of the
    line), blank names shown as "a player", and at most ``NAME_LIMIT`` characters (eight
    long names must fit an embed field)."""
    text = " ".join(BIDI_CONTROLS.sub("", name).split()) or "a player"
    if len(text) > NAME_LIMIT:
        text = text[: NAME_LIMIT - 1].rstrip() + "\N{HORIZONTAL ELLIPSIS}"
    escaped = discord.utils.escape_markdown(discord.utils.escape_mentions(text))
    return escaped.replace("<", "<\N{ZERO WIDTH SPACE}")


#: Discord's limit for a channel's name, a thread's too.
THREAD_NAME_LIMIT = 100


def thread_name(_: Lang, names: list[str]) -> str:
    """A game's thread's name, "Yahtzee: Ann, Bob", within Discord's limit (``THREAD_NAME_LIMIT``
    characters): as many names as fit whole, then "…"; a first name too long for it alone
    cut at a word."""
    ellipsis = "\N{HORIZONTAL ELLIPSIS}"
    for count in range(len(names), 0, -1):
        shown = ", ".join(names[:count]) + ("" if count == len(names) else ", " + ellipsis)
        title = _("Yahtzee: {names}", names=shown)
        if len(title) <= THREAD_NAME_LIMIT:
            return title
    room = THREAD_NAME_LIMIT - len(_("Yahtzee: {names}", names=ellipsis))
    first = names[0] if names else ""
    cut = first[: room + 1].rsplit(" ", 1)[0] if " " in first[:room] else first[:room]
    return _("Yahtzee: {names}", names=cut[:room].rstrip() + ellipsis)


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


async def send_card(interaction: discord.Interaction[Any], card: Card, edit: bool = False) -> None:
    """A scorecard, only for the asker: as text, and as a picture where files may go; in a
    game of more than one seat, with a menu of every player's card (one readable column at
    a time on a phone, another one tap away). ``edit``: in place of the card shown (the
    menu's choice), else a new private answer."""
    files = [png(card.image, CARD_FILE)] if card.image is not None else []
    text = f"**{shown_name(card.name)}**\n{code_block(card.text)}"
    view = card_menu(private(interaction), card)
    if edit:
        await answers.edit(interaction, content=text, attachments=files, view=view)
        return
    await answers.send(interaction, text, files=files, ephemeral=True, view=view)


def card_menu(_: Lang, card: Card) -> discord.ui.View:
    """The menu of a game's players under a private scorecard (none for a solo game)."""
    view = Controls()
    if len(card.seats) > 1:
        options = [
            discord.SelectOption(
                label=name[:100] or "?", value=player, default=player == card.shown
            )
            for player, name in card.seats
        ]
        view.add_item(CardSelect(card.game_id, options, _("See another player's card")))
    return view


def png(data: bytes, name: str) -> discord.File:
    """A PNG attachment."""
    return discord.File(io.BytesIO(data), filename=name)


# -- lobby -----------------------------------------------------------------------------------


def lobby_embed(row: GameView) -> discord.Embed:
    """The lobby: players so far, the host, the preset, and what to do."""
    _ = public(row)
    embed = discord.Embed(title=_("Yahtzee: lobby"), colour=GREEN)
    if row.status == "lobby" and len(row.players) >= MAX_SEATS:
        embed.description = _(
            "This lobby is full ({most} players): nobody else can join. The host presses "
            "**Start**.",
            most=MAX_SEATS,
        )
    elif row.status == "lobby":
        embed.description = _(
            "Press **Join** to take a seat (up to 8). The host presses **Start** when "
            "everyone is in; a solo game is fine too."
        )
    elif row.status == "active":
        embed.description = _("The game has started: the board is below.")
    else:
        embed.description = _("This lobby is closed.")
        embed.colour = GREY
    host = _("(host)")
    seated = "\n".join(
        f"`#{i}` {mention(player_id(uid), name)}" + (f" {host}" if uid == row.host_id else "")
        for i, (uid, name) in enumerate(row.players, 1)
    )
    embed.add_field(
        name=_("Players ({count}/8)", count=len(row.players)),
        value=seated or _("nobody yet"),
        inline=False,
    )
    embed.set_footer(text=_("{preset} rules (/yahtzee rules tells them)", preset=preset(_, row)))
    return embed


def preset(_: Lang, row: GameView | Game) -> str:
    """The name of the rules a game is played by, in ``_``'s language."""
    return _(row.preset.title)


def invitation(_: Lang, host: str, invited: list[tuple[int, str]]) -> str | None:
    """Play again's one ping: who is invited to the rematch and how to take a seat."""
    if not invited:
        return None
    who = " ".join(f"<@{uid}>" for uid, _name in invited)
    return _(
        "{who}: {host} wants a rematch. Press **Join** to take a seat.",
        who=who,
        host=shown_name(host),
    )


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
    and these break where the meaning does. A full lobby greys out Join and Add bot."""
    if row.status != "lobby":
        return []
    _ = public(row)
    full = len(row.players) >= MAX_SEATS
    rows: list[list[discord.ui.Item[Any]]] = [[], [], []]
    for action, label, style, line in (
        ("join", _("Join"), discord.ButtonStyle.success, 0),
        ("leave", _("Leave"), discord.ButtonStyle.secondary, 0),
        ("start", _("Start"), discord.ButtonStyle.primary, 0),
        ("cancel", _("Cancel"), discord.ButtonStyle.danger, 0),
        ("bot-optimal", _("Add bot (Optimal)"), discord.ButtonStyle.secondary, 1),
        ("bot-casual", _("Add bot (Casual)"), discord.ButtonStyle.secondary, 1),
        ("bot-winning", _("Add bot (To win)"), discord.ButtonStyle.secondary, 1),
        (
            "hints",
            _("Hints: on") if row.hints else _("Hints: off"),
            discord.ButtonStyle.secondary,
            2,
        ),
    ):
        seats = action == "join" or action.startswith("bot-")
        rows[line].append(LobbyButton(action, row.id, label, style, disabled=full and seats).item)
    bots = [name for uid, name in row.players if uid < 0]
    if bots:  # the host takes the bot seated last back out
        label = _("Remove {name}", name=bots[-1])[:80]
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


def scores_field(_: Lang, game: Game) -> str:
    """Every seat's running total, numbered like the image's columns."""
    lines = []
    for i, seat in enumerate(game.seats):
        marker = ""
        if i == game.current and not game.is_over:
            marker = " \N{LEFTWARDS ARROW} " + _("to play")
        if seat.left:
            marker = " " + _("(left)")
        elif seat.away:
            marker = " " + _("(away: /yahtzee rejoin)")
        lines.append(
            f"`#{i + 1}` "
            + _.pair(mention(seat.player_id, seat.name), f"**{seat.card.total}**")
            + marker
        )
    return "\n".join(lines)


#: Dice as numbers: what the builders use where no emojis are given.
NUMBERS = DiceFaces()


def board_embed(board: Board, faces: DiceFaces = NUMBERS) -> discord.Embed:
    """The live board's embed; the image is attached as board.png."""
    _ = public(board.row)
    game = board.game
    assert game is not None
    seat = game.current_seat
    who = mention(seat.player_id, seat.name)
    if is_bot(seat.player_id):
        text = bot_turn_text(_, game, who, faces)
    elif game.dice is None:
        text = _("{who}, it's your turn: press **Roll**.", who=who)
    elif game.rolls_left == 0:
        text = _(
            "{who}: that was roll {rolls} of {rolls}. Pick a box to score.",
            who=who,
            rolls=ROLLS_PER_TURN,
        )
    else:
        text = _(
            "{who}: roll {roll} of {rolls}. Click dice to hold them, then **Roll** again, or "
            "pick a box to score now.",
            who=who,
            roll=game.rolls_used,
            rolls=ROLLS_PER_TURN,
        )
    deadline = board.row.deadline
    if deadline is not None:  # a live countdown in every client's own time
        when = f"<t:{int(deadline.timestamp())}:R>"
        text += "\n\N{ALARM CLOCK} " + _("Time runs out {when}.", when=when)
    embed = discord.Embed(
        title=_("Yahtzee: round {round} of {rounds}", round=game.round, rounds=ROUNDS),
        description=text,
        colour=GREEN,
    )
    embed.add_field(name=_("Scores"), value=scores_field(_, game), inline=False)
    if board.image is not None:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    elif not board.row.pictures:  # no pictures here: the card as text, and the dice in words
        if game.dice is not None:
            held = game.held if game.rolls_left > 0 else (False,) * len(game.held)
            embed.add_field(name=_("Dice"), value=faces.text(game.dice, held), inline=False)
        embed.add_field(
            name=_("Scorecard"), value=code_block(card_text(game, language=_.code)), inline=False
        )
    # (before a turn's first roll a game with pictures shows none: the roll brings it)
    embed.set_footer(
        text=_("{preset} rules · /yahtzee rules · /yahtzee scorecard", preset=preset(_, game))
    )
    return embed


def bot_turn_text(_: Lang, game: Game, who: str, faces: DiceFaces = NUMBERS) -> str:
    """A computer player's turn so far, in words: what it kept and what the roll brought
    ("kept 4-4 and rolled three: 1-2-5"; the picture shows the five together)."""
    dice = game.dice
    if dice is None:
        return _("{who} is playing its turn: rolling.", who=who)
    shown = faces.text(dice)
    if game.rolls_used == 1:
        what = _("rolled {dice}", dice=shown)
    else:
        kept = sorted(face for face, held in zip(dice, game.held, strict=True) if held)
        rolled = [face for face, held in zip(dice, game.held, strict=True) if not held]
        values = {"kept": faces.text(kept), "dice": faces.text(rolled)}  # what this roll brought
        what = {
            0: _("rolled all five again: {dice}", dice=shown),
            1: _("kept {kept} and rolled four: {dice}", **values),
            2: _("kept {kept} and rolled three: {dice}", **values),
            3: _("kept {kept} and rolled two: {dice}", **values),
            4: _("kept {kept} and rolled one: {dice}", **values),
        }[len(kept)]
    return _(
        "{who} is playing its turn. Roll {roll} of {rolls}: {what}.",
        who=who,
        roll=game.rolls_used,
        rolls=ROLLS_PER_TURN,
        what=what,
    )


def box_label(_: Lang, option: BoxOption) -> tuple[str, str | None]:
    """A select option's label and description for a box the dice may be scored in."""
    if option.bonus_turn:
        return (
            _("Yahtzee bonus: +{points}", points=option.points),
            _("Takes the bonus; no box is filled this turn"),
        )
    description = None
    if option.joker:
        if option.bonus:
            description = (
                _("Joker: forced here, +{bonus} Yahtzee bonus", bonus=option.bonus)
                if option.forced
                else _("Joker, +{bonus} Yahtzee bonus", bonus=option.bonus)
            )
        else:
            description = _("Joker: forced here") if option.forced else _("Joker")
    return _.pair(_(option.category.label), option.points), description


def box_options(
    _: Lang, game: Game, best: BoxHint | None = None, faces: DiceFaces = NUMBERS
) -> list[discord.SelectOption]:
    """The menu of boxes: those that score first, then the scratches (0 points, said once),
    the hint's best box marked: with a star when scoring now is the best move, else as the
    best box *if you stop now* (the hint would keep dice and roll)."""
    scoring: list[discord.SelectOption] = []
    scratches: list[discord.SelectOption] = []
    for choice in game.choices():
        label, description = box_label(_, choice)
        category = choice.category
        if best is not None and category is best.box:
            mark = (
                "\N{WHITE MEDIUM STAR} " + _("Best move: score here now (hint)")
                if best.stop_now
                else _("Best box if you stop now; rolling again is better (hint)")
            )
            description = f"{mark}; {description}" if description else mark
        option = discord.SelectOption(
            label=label, value=category.value, description=description,
            emoji=faces.emoji(category.face) if category.face is not None else None,
        )  # fmt: skip
        (scoring if choice.scores else scratches).append(option)
    if scratches:
        note = (
            _("Scratch: 0 points here and in the boxes below")
            if len(scratches) > 1
            else _("Scratch: 0 points")
        )
        first = scratches[0]
        first.description = f"{note}; {first.description}" if first.description else note
    for option in scoring + scratches:  # Discord's limit for a description
        if option.description and len(option.description) > 100:
            option.description = option.description[:99] + "\N{HORIZONTAL ELLIPSIS}"
    return scoring + scratches


def board_view(board: Board, faces: DiceFaces = NUMBERS) -> Payload:
    """Five die buttons; Roll and Scorecard (and Undo, Hint); the select of legal boxes."""
    _ = public(board.row)
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
        RollButton.payload(
            gid,
            turn,
            rolls,
            game.rolls_left,
            computer,
            _("Roll ({left} left)", left=game.rolls_left),
        ),
        ScorecardButton(gid, _("Scorecard")).item.to_component_dict(),
    ]
    if board.row.daily is not None and game.undo_player_id is not None:
        # a private board is also its scoring's summary: the Undo is on it, until the roll
        controls.append(UndoButton(gid, turn - 1, _("Undo")).item.to_component_dict())
    if board.row.hints:
        controls.append(HintButton(gid, _("Hint"), disabled=computer).item.to_component_dict())
    options = [] if computer else box_options(_, game, board.best_box, faces)
    waiting = (
        _("The computer is playing its turn") if computer else _("Roll first, then pick a box")
    )
    menu = BoxSelect.payload(
        gid, turn, rolls, options, waiting, _("Pick a box to score"), _("Roll first")
    )
    return Payload([action_row(*dice), action_row(*controls), action_row(menu)])


def summary_embed(
    scored: Scored, timed_out: bool = False, away: bool = False, faces: DiceFaces = NUMBERS,
    played_as: str | None = None,
) -> discord.Embed:  # fmt: skip
    """A finished turn, in text only: who scored what. Its picture goes (it showed the dice
    before the scoring, and a game's channel is read on phones): edit it in with
    ``attachments=[]``, which also keeps Discord from showing the old picture loose.
    ``played_as``: the bot that played a timed-out turn ("optimal", "casual"), if one did."""
    _ = public(scored.board.row)
    result = scored.result
    who = mention(result.player_id, scored.scorer_name)
    dice = faces.text(result.dice)
    if result.bonus_turn:
        text = _(
            "{who} took a **Yahtzee bonus** (+{points}) with {dice}.",
            who=who,
            points=result.points,
            dice=dice,
        )
    elif result.bonus:
        text = _(
            "{who} scored **{points}** in **{box}** with {dice}, plus a **+{bonus}** Yahtzee "
            "bonus.",
            who=who,
            points=result.points,
            box=_(result.category.label),
            dice=dice,
            bonus=result.bonus,
        )
    else:
        text = _(
            "{who} scored **{points}** in **{box}** with {dice}.",
            who=who,
            points=result.points,
            box=_(result.category.label),
            dice=dice,
        )
    if (
        result.bonus
        or result.bonus_turn
        or (result.category is Category.YAHTZEE and result.points >= YAHTZEE_POINTS)
    ):  # a Yahtzee scored as one, or its bonus; five 1s put in Ones are no party
        text = "\N{PARTY POPPER} " + _("**Yahtzee!** {said}", said=text)
    if timed_out and played_as == "optimal":
        text = "\N{ALARM CLOCK} " + _(
            "Time ran out: played for {who} as the Optimal bot would. {said}", who=who, said=text
        )
    elif timed_out and played_as is not None:  # the Optimal bot's table was not loaded yet
        text = "\N{ALARM CLOCK} " + _(
            "Time ran out: played for {who} as the Casual bot would (the Optimal bot was not "
            "ready yet). {said}",
            who=who,
            said=text,
        )
    elif timed_out:  # scratch (or skip seat): not "played for them", the other choice's name
        text = "\N{ALARM CLOCK} " + _(
            "Time ran out: the box worth least was scored. {said}", said=text
        )
        if away:
            text += " " + _(
                "They timed out twice in a row and are skipped from now on; "
                "`/yahtzee rejoin` brings them back."
            )
    embed = discord.Embed(
        title=_("Yahtzee: round {round} of {rounds}", round=scored.round, rounds=ROUNDS),
        description=text,
        colour=GREY,
    )
    embed.set_footer(text=_("This turn is over; the live board is below."))
    return embed


def undo_view(_: Lang, game_id: int, turn: int) -> discord.ui.View:
    """Only the Undo button, for the player who just scored."""
    view = Controls()
    view.add_item(UndoButton(game_id, turn, _("Undo")))
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
    _ = public(row)
    lines = []
    if daily is not None:
        lines.append(daily_line(_, daily))
    for standing in game.standings():
        card = game.seats[standing.seat].card
        who = mention(standing.player_id, standing.name)
        if standing.place is None:
            lines.append(_("left: {who}: {total}", who=who, total=standing.total))
            continue
        medal = MEDALS.get(standing.place, f"{standing.place}.")
        extras = []
        if card.upper_bonus:
            extras.append(_("upper bonus {points}", points=card.upper_bonus))
        if card.yahtzee_bonus:
            extras.append(_("Yahtzee bonus {points}", points=card.yahtzee_bonus))
        tail = f" ({', '.join(extras)})" if extras else ""
        lines.append(f"{medal} " + _.pair(who, f"**{standing.total}**") + tail)
    winners = [s for s in game.standings() if s.place == 1]
    if len(game.seats) == 1:  # a solo game, a daily challenge's try: nobody to beat
        seat = game.seats[0]
        title = _("Game over: {name} scored {total}!", name=shown_name(seat.name),
                  total=seat.card.total)  # fmt: skip
    elif len(winners) == 1:
        title = _("Game over: {name} wins with {total}!", name=shown_name(winners[0].name),
                  total=winners[0].total)  # fmt: skip
    elif winners:
        title = _("Game over: a {count}-way tie at {total}!", count=len(winners),
                  total=winners[0].total)  # fmt: skip
    else:
        title = _("Game over")
    after = (
        _("Replay tells the game turn by turn")
        if row.daily is not None
        else _("Play again opens a lobby for the same players")
    )
    parts: list[discord.ui.Item[Any]] = []
    if said:
        parts.append(discord.ui.TextDisplay(said))
    parts += [discord.ui.TextDisplay(f"## {title}"), discord.ui.TextDisplay("\n".join(lines))]
    if picture:
        parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(attachment(FINAL_FILE))))
    rules = _("{preset} rules", preset=preset(_, row))
    parts += [
        discord.ui.TextDisplay(code_block(card_text(game, language=_.code))),
        discord.ui.TextDisplay(f"-# {rules} \N{MIDDLE DOT} {after}"),
        final_buttons(_, row.id, analysis=supports(row.preset), daily=row.daily is not None),
    ]
    return Layout(discord.ui.Container(*parts, accent_colour=GOLD))


def final_buttons(
    _: Lang, game_id: int, analysis: bool = True, daily: bool = False
) -> discord.ui.ActionRow[Any]:
    """Play again (a daily challenge: its Replay instead), and each player's Analysis."""
    buttons: list[discord.ui.Item[Any]] = [
        (
            ReplayButton(game_id, _("Replay"))
            if daily
            else PlayAgainButton(game_id, _("Play again"))
        ).item
    ]
    if analysis:
        buttons.append(AnalysisButton(game_id, _("Analysis")).item)
    return discord.ui.ActionRow(*buttons)


def daily_intro(_: Lang, day: str) -> str:
    """The line above a daily challenge's private board."""
    return "\N{CALENDAR} " + _(
        "Your daily challenge for {day}: the same dice for everyone today, whatever they "
        "keep, so only you see this board. One try; the score is compared with the Optimal "
        "bot's on the same dice, and only the result is posted in the channel. Lost this "
        "message? `/yahtzee daily` shows it again.",
        day=_.date(day),
    )


def daily_result_layout(_: Lang, row: GameView, game: Game, entry: DailyEntry | None) -> Layout:
    """What the channel sees of a daily challenge (in ``_``, the channel's language), as a
    Components V2 message: the result alone (the card would tell others which boxes the
    day's dice fill), and Replay."""
    seat = game.seats[0]
    parts: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay(
            "## "
            + _(
                "Daily challenge {day}: {name} scored {total}!",
                day=_.date(row.daily or ""),
                name=shown_name(seat.name),
                total=seat.card.total,
            )
        )
    ]
    if entry is not None:
        parts.append(discord.ui.TextDisplay(daily_line(_, entry)))
    parts += [
        discord.ui.TextDisplay(
            "-# "
            + _(
                "Play yours with /yahtzee daily \N{MIDDLE DOT} Replay opens to everyone "
                "once every try of the day is over"
            )
        ),
        final_buttons(_, row.id, analysis=False, daily=True),
    ]
    return Layout(discord.ui.Container(*parts, accent_colour=GOLD))


def daily_line(_: Lang, entry: DailyEntry) -> str:
    """A finished try at a daily challenge against the Optimal bot on the same dice (under a
    heading that says the score: the line does not say it again)."""
    score, optimal = entry.score, entry.optimal
    if score is None:
        text = _("Daily challenge {day}: not finished.", day=_.date(entry.day))
    elif optimal is None:
        text = _("The Optimal bot's score on the same dice is not ready yet.")
    elif score == optimal:
        text = _(
            "Level with the Optimal bot, which scored **{optimal}** on the same dice.",
            optimal=optimal,
        )
    elif score > optimal:
        text = _.ngettext(
            "{n} point above the Optimal bot, which scored **{optimal}** on the same dice.",
            "{n} points above the Optimal bot, which scored **{optimal}** on the same dice.",
            score - optimal,
            n=score - optimal,
            optimal=optimal,
        )
    else:
        text = _.ngettext(
            "{n} point below the Optimal bot, which scored **{optimal}** on the same dice.",
            "{n} points below the Optimal bot, which scored **{optimal}** on the same dice.",
            optimal - score,
            n=optimal - score,
            optimal=optimal,
        )
    return f"\N{CALENDAR} {text}"


def daily_board_embed(
    _: Lang, entries: list[DailyEntry], day: str, everywhere: bool
) -> discord.Embed:
    """Today's daily challenge board: rank, player, score, and the Optimal bot's score."""
    if not entries:
        text = _("Nobody has finished today's challenge yet: `/yahtzee daily` to be the first.")
    else:
        text = "\n".join(
            f"{MEDALS.get(rank, f'{rank}.')} " + _.pair(shown_name(e.name), f"**{e.score}**")
            for rank, e in enumerate(entries, 1)
        )
        if entries[0].optimal is not None:
            text += "\n" + _("The Optimal bot scored **{score}** on today's dice.",
                             score=entries[0].optimal)  # fmt: skip
    title = (
        _("Daily challenge {day}: every server", day=_.date(day))
        if everywhere
        else _("Daily challenge {day}: this server", day=_.date(day))
    )
    return discord.Embed(title=title, description=text, colour=GOLD)


def replay_text(_: Lang, turns: list[Turn]) -> str:
    """A game told turn by turn: each roll (what was kept, what it showed), then the box."""
    lines = []
    for n, turn in enumerate(turns, 1):
        rolls = []
        for kept, shown in turn.rolls:
            if kept:
                rolls.append(_("kept {kept}, rolled {dice}", kept="-".join(map(str, kept)),
                               dice=shown))  # fmt: skip
            else:
                rolls.append(_("rolled {dice}", dice=shown))
        box = _(turn.box.label) if turn.box is not None else "?"
        bonus = f" +{turn.bonus}" if turn.bonus else ""
        timer = " " + _("(time ran out)") if turn.by == "timeout" else ""
        scored = f"{box} {turn.points}{bonus}{timer}"
        lines.append(f"{n}. {'; '.join(rolls)} \N{RIGHTWARDS ARROW} {scored}")
    return "\n".join(lines) or _("No turn was played.")


def report_text(_: Lang, report: Report) -> str:
    """A player's report card in words."""
    share = report.optimal / report.decisions if report.decisions else 0.0
    well = _.ngettext(
        "**{optimal} of your {n} decision** ({share}) was exactly what optimal play would "
        "have done.",
        "**{optimal} of your {n} decisions** ({share}) were exactly what optimal play would "
        "have done.",
        report.decisions,
        optimal=report.optimal,
        n=report.decisions,
        share=_.percent(share),
    )
    if report.left:  # a game left midway is no perfect game, however well it went
        well = _("You left this game before it ended; this covers the moves you made. {said}",
                 said=well)  # fmt: skip
    elif report.decisions and report.optimal == report.decisions:
        well = "\N{GLOWING STAR} " + _("{said} A perfect game!", said=well)
    lines = [
        well,
        _(
            "Points left on the table: **{loss}** expected points over the game, against "
            "optimal play.",
            loss=_.decimal(report.loss),
        ),
    ]
    if report.costliest:
        lines.append(_("Your costliest decisions:"))
        lines += [f"- {_.say(text)}" for text in report.costliest]
    return "\n".join(lines)


def hint_text(
    _: Lang,
    choices: list[Choice],
    game: Game,
    to_win: WinHint | None = None,
    to_win_off: bool = False,
) -> str:
    """The best choices in plain words, with their expected final scores; with someone to
    beat, also the move with the best chance to win when it is another one (and its chance
    reads differently from choice 1's), or, where that advice cannot be had on this host
    (``to_win_off``), that it is off."""
    assert game.dice is not None
    lines = [
        f"{i}. " + _.pair(_.say(choice.describe()), f"**{_.decimal(choice.value)}**")
        for i, choice in enumerate(choices, 1)
    ]
    text = (
        _(
            "Best choices for {dice} (roll {roll} of {rolls}), with the expected final score of "
            "each under optimal play:",
            dice=game.dice,
            roll=game.rolls_used,
            rolls=ROLLS_PER_TURN,
        )
        + "\n"
        + "\n".join(lines)
    )
    if to_win is None:
        if to_win_off:
            text += "\n" + _(
                "Advice on your chance to beat the others is off on this host; the choices "
                "above are for the most points."
            )
        return text
    rival = shown_name(to_win.rival)
    # Another move is named only when its chance reads differently: "47% (choice 1: 47%)"
    # would send a player after a difference the words cannot show.
    chance, first = percent(_, to_win.choice.value), percent(_, to_win.points_choice_chance)
    if to_win.differs and chance != first:
        move = _.say(to_win.choice.describe(within=True))
        return (
            text
            + "\n"
            + _(
                "To beat {rival}, though: {move}, with **{chance}** to finish ahead (choice 1: "
                "{first}).",
                rival=rival,
                move=move,
                chance=chance,
                first=first,
            )
        )
    if to_win.choice.value <= 0:
        return text + "\n" + _("No move can still beat {rival}: choice 1 is for the points.",
                               rival=rival)  # fmt: skip
    return (
        text
        + "\n"
        + _(
            "Choice 1 is also your best chance to beat {rival}: **{chance}** to finish ahead.",
            rival=rival,
            chance=chance,
        )
    )


def percent(_: Lang, chance: float) -> str:
    """A chance in words a person reads at a glance, with its own hedge: "about 3%", "less
    than 1%", "more than 99%", and "no chance" or "certain" only when it is exactly so."""
    if chance <= 0:
        return _("no chance")
    if chance >= 1:
        return _("certain")
    if chance < 0.005:
        return _("less than 1%")
    if chance > 0.995:
        return _("more than 99%")
    return _("about {percent}", percent=_.percent(chance))


#: What a board (or lobby) left behind by /yahtzee board says.
BOARD_MOVED = N_("This board moved to the bottom of the channel.")


def ended_embed(_: Lang, reason: str) -> discord.Embed:
    """A board retired because the game ended early (``reason`` in ``_``'s language)."""
    return discord.Embed(title=_("Yahtzee: game ended"), description=reason, colour=GREY)


def moved_embed(_: Lang) -> discord.Embed:
    """A board left behind by /yahtzee board."""
    return discord.Embed(title=_("Yahtzee: board moved"), description=_(BOARD_MOVED), colour=GREY)


def moved_on_embed(_: Lang, finished: bool = False) -> discord.Embed:
    """A board the game left behind (a restart, a repair): it says so, instead of still
    asking someone to roll without buttons to do it."""
    text = (
        _("This game is over: the final scorecard is below.")
        if finished
        else _("The game moved on: the live board is below.")
    )
    return discord.Embed(title=_("Yahtzee: board out of date"), description=text, colour=GREY)


def left_embed(_: Lang, name: str) -> discord.Embed:
    """The board of a player who left during their own turn (``name`` already made inert)."""
    return discord.Embed(
        title=_("Yahtzee: a player left"),
        description=_("**{name}** left the game.", name=name),
        colour=GREY,
    )


def waiting_embed(_: Lang) -> discord.Embed:
    """A next turn's board that an Undo took back: it becomes that board again when the
    scoring is made anew (or goes, if the game takes another turn)."""
    return discord.Embed(
        title=_("Yahtzee: a scoring was taken back"),
        description=_(
            "The last scoring was undone: the board above is live again. "
            "This message shows the next turn when the scoring is made anew."
        ),
        colour=GREY,
    )


def leave_confirm_view(_: Lang, game_id: int) -> discord.ui.View:
    """The confirmation button for /yahtzee leave on a daily challenge."""
    view = Controls()
    view.add_item(LeaveConfirmButton(game_id, _("Leave the daily challenge")))
    return view


def end_confirm_view(_: Lang, game_id: int) -> discord.ui.View:
    """The confirmation button for /yahtzee end."""
    view = Controls()
    view.add_item(EndConfirmButton(game_id, _("End the game")))
    return view


# -- leaderboards ----------------------------------------------------------------------------

LEADERBOARD_FILE = "leaderboard.png"
STATS_FILE = "stats.png"


#: What an empty board says: why nobody is on it, since a game was maybe just played.
EMPTY_BOARD = {
    "high": N_("Nobody is on this board yet: finish a game to get on it"),
    "wins": N_(
        "Nobody has won a game against another seat yet (a computer's win, or a solo "
        "game, puts nobody on this board)"
    ),
    "average": N_("Nobody has the 5 finished games this board needs yet"),
    "yahtzees": N_("Nobody has scored a Yahtzee yet"),
}
#: The same, for a week's or a month's board.
EMPTY_PERIOD = {
    "high": N_("Nobody is on this board yet: finish a game to get on it in this period"),
    "wins": N_(
        "Nobody has won a game against another seat yet (a computer's win, or a solo "
        "game, puts nobody on this board) in this period"
    ),
    "average": N_("Nobody has the 5 finished games this board needs yet in this period"),
    "yahtzees": N_("Nobody has scored a Yahtzee yet in this period"),
}


#: A leaderboard's period inside its title ("High scores (this week)").
PERIODS_WITHIN = {"all": N_("all time"), "month": N_("this month"), "week": N_("this week")}

LEADERBOARD_FOOTER = N_("Bot opponents never count. /yahtzee stats for your own figures.")


def leaderboard_layout(
    _: Lang, page: LeaderboardPage, picture: bool = True, shared_by: str | None = None
) -> Layout:
    """A board's page as a Components V2 message: its title, the table's picture (without
    ``picture``, where the bot may not attach files, the page's lines as text), the asker's
    own line, and in the same container Share, Previous and Next (a page ``shared_by``
    someone is for reading: no buttons)."""
    title = "## " + _(
        "Leaderboard: {kind} ({period})",
        kind=_(LEADERBOARD_KINDS[page.kind]),
        period=_(PERIODS_WITHIN[page.period]),
    )
    parts: list[discord.ui.Item[Any]] = []
    if shared_by is not None:
        parts.append(discord.ui.TextDisplay("-# " + _("Shared by {name}", name=shared_by)))
    parts.append(discord.ui.TextDisplay(title))
    lines: list[str] = []
    if picture:
        parts.append(
            discord.ui.MediaGallery(discord.MediaGalleryItem(attachment(LEADERBOARD_FILE)))
        )
    else:
        lines += [
            f"`{r.rank}.` "
            + _.pair(
                mention(player_id(r.user_id), r.name or _("a player")),
                _.ngettext(
                    "**{figure}** in {n} game",
                    "**{figure}** in {n} games",
                    r.games,
                    figure=format_figure(page.kind, r.figure),
                    n=r.games,
                ),
            )
            for r in page.rows
        ]
        if page.pages > 1:
            lines.append(_("Page {page} of {pages}", page=page.page + 1, pages=page.pages))
    if page.players == 0:
        empty = EMPTY_BOARD if page.period == "all" else EMPTY_PERIOD
        lines.append(_(empty[page.kind]))
    elif page.footer:
        lines.append(shown_name(page.footer))  # the asker's line, readable on a phone
    if lines:
        parts.append(discord.ui.TextDisplay("\n".join(lines)))
    parts.append(discord.ui.TextDisplay(f"-# {_(LEADERBOARD_FOOTER)}"))
    if shared_by is None:
        buttons: list[discord.ui.Item[Any]] = [
            ShareButton("lb", f"{page.kind}:{page.period}:{page.page}", _("Share")).item
        ]
        if page.pages > 1:
            buttons += [
                PageButton(page.kind, page.period, page.page, "prev", page.page == 0,
                           _("Previous")).item,
                PageButton(page.kind, page.period, page.page, "next",
                           page.page >= page.pages - 1, _("Next")).item,
            ]  # fmt: skip
        parts.append(discord.ui.ActionRow(*buttons))
    return Layout(discord.ui.Container(*parts, accent_colour=GREEN))


def leaderboard_files(page: LeaderboardPage, picture: bool = True) -> list[discord.File]:
    """The page's picture, or nothing where files may not go."""
    return [png(page.image, LEADERBOARD_FILE)] if picture else []


def attachment(name: str) -> str:
    """How a message's component shows one of its own attached files."""
    return f"attachment://{name}"


def stats_layout(
    _: Lang, name: str, stats: PlayerStats, user_id: int, shared_by: str | None = None
) -> Layout:
    """A player's figures on this server as a Components V2 message: the figures as text,
    the chart beside them, and Share in the same container (a copy ``shared_by`` someone
    for the channel has none)."""
    parts: list[discord.ui.Item[Any]] = []
    if shared_by is not None:
        parts.append(discord.ui.TextDisplay("-# " + _("Shared by {name}", name=shared_by)))
    parts.append(discord.ui.TextDisplay("## " + _("Yahtzee stats: {name}", name=shown_name(name))))
    if stats.games == 0:
        parts.append(
            discord.ui.TextDisplay(
                _(
                    "{name} has no finished game on this server yet (a game left before its end "
                    "does not count).",
                    name=shown_name(name),
                )
            )
        )
    else:
        figures = [
            (_("Games"), str(stats.games)),
            (
                _("Wins"),
                _(
                    "{wins} of {games} ({share})",
                    wins=stats.wins,
                    games=stats.multiplayer_games,
                    share=_.percent(stats.win_rate),
                )
                if stats.multiplayer_games
                else _("no multiplayer games"),
            ),
            (_("Average"), _.decimal(stats.average)),
            (_("Best"), str(stats.best)),
            (_("Upper bonus"), _("{share} of games", share=_.percent(stats.upper_bonus_rate))),
            (_("Yahtzees per game"), _.decimal(stats.yahtzees_per_game, 2)),
        ]
        if stats.skill is not None:
            figures.append(
                (
                    _("Points left on the table"),
                    _(
                        "{points} a game on average, against optimal play",
                        points=_.decimal(stats.skill),
                    ),
                )
            )
        parts.append(
            discord.ui.TextDisplay("\n".join(_.pair(f"**{label}**", v) for label, v in figures))
        )
        if stats.image is not None:
            parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(attachment(STATS_FILE))))
    if shared_by is None:
        parts.append(discord.ui.ActionRow(ShareButton("stats", str(user_id), _("Share")).item))
    return Layout(discord.ui.Container(*parts, accent_colour=GREEN))


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
    embed.add_field(name=_("Default preset"), value=_(Preset(settings.preset).title))
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
    view.add_item(SettingSelect(guild_id, "preset", presets))
    view.add_item(SettingSelect(guild_id, "turn", limits))
    view.add_item(SettingSelect(guild_id, "policy", policies))
    view.add_item(SettingSelect(guild_id, "language", languages))
    view.add_item(ThreadsButton(guild_id, on=settings.use_threads, label=threads))
    view.add_item(ThreadsButton(guild_id, "autoroll", on=settings.auto_roll, label=autoroll))
    return view


def reset_confirm_view(_: Lang, guild_id: int) -> discord.ui.View:
    """The confirmation button for a leaderboard reset."""
    view = Controls()
    view.add_item(ResetConfirmButton(guild_id, _("Reset the leaderboard")))
    return view

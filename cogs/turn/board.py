"""The live board of a turn: its embed (whose turn, the roll, the scores, the deadline),
its picture, and its controls (the dice, Roll, Scorecard, Undo, Hint, the box menu)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.engine import ROLLS_PER_TURN, ROUNDS, BoxOption, Game
from bot.games import Board, BoxHint, card_text, code_block, is_bot
from bot.i18n import Lang
from cogs.coaching.controls import HintButton
from cogs.shared.controls import Payload, action_row
from cogs.shared.emojis import DiceFaces
from cogs.shared.language import public
from cogs.shared.text import GREEN, mention, png, preset

from .controls import BoxSelect, DieButton, RollButton, ScorecardButton, UndoButton

BOARD_FILE = "board.png"


def board_files(board: Board) -> list[discord.File]:
    """The board's picture as the message's only attachment (none in a game without
    pictures: editing with this list also drops an old picture)."""
    return [png(board.image, BOARD_FILE)] if board.image is not None else []


def scores_field(_: Lang, game: Game, by_click: bool = False) -> str:
    """Every seat's running total, numbered like the image's columns; an away seat says how
    its player comes back (``by_click``: where most players cannot type /yahtzee rejoin, by
    the Rejoin under their Scorecard)."""
    lines = []
    for i, seat in enumerate(game.seats):
        marker = ""
        if i == game.current and not game.is_over:
            marker = " \N{LEFTWARDS ARROW} " + _("to play")
        if seat.left:
            marker = " " + _("(left)")
        elif seat.away:
            marker = " " + (
                _("(away: Scorecard, then Rejoin)") if by_click else _("(away: /yahtzee rejoin)")
            )
        lines.append(
            f"`#{i + 1}` "
            + _.pair(mention(seat.player_id, seat.name), f"**{seat.card.total}**")
            + marker
        )
    return "\n".join(lines)


#: Dice as numbers: what the builders use where no emojis are given.
NUMBERS = DiceFaces()


def board_embed(board: Board, faces: DiceFaces = NUMBERS, by_token: bool = False) -> discord.Embed:
    """The live board's embed; the image is attached as board.png. ``by_token``: in a place
    where the bot only answers clicks (a group DM), a timed turn says how its timer works
    there (as the lobby did), and nothing sends a player to a command most of them are not
    offered there (the Scorecard button's answer has the rules, the board and Leave)."""
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
        if by_token:
            text += " " + _(
                "Here I can only speak when someone clicks: if time runs out, the turn moves "
                "on at the next click of anyone in the game."
            )
    embed = discord.Embed(
        title=_("Yahtzee: round {round} of {rounds}", round=game.round, rounds=ROUNDS),
        description=text,
        colour=GREEN,
    )
    embed.add_field(name=_("Scores"), value=scores_field(_, game, by_token), inline=False)
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
    footer = (
        # where most players cannot type /yahtzee: what the Scorecard button's answer holds
        _("{preset} rules · Scorecard: rules, board, leave", preset=preset(_, game))
        if by_token
        else _("{preset} rules · /yahtzee rules · /yahtzee scorecard", preset=preset(_, game))
    )
    embed.set_footer(text=footer)
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
        DieButton(gid, turn, rolls, i).payload(
            shown[i], holding and game.held[i], not can_hold, faces
        )
        for i in range(5)
    ]
    controls: list[Mapping[str, Any]] = [
        RollButton(gid, turn, rolls).payload(
            game.rolls_left,
            computer,
            _("Roll ({left} left)", left=game.rolls_left),
        ),
        ScorecardButton(gid).button(_("Scorecard"), row=1).to_component_dict(),
    ]
    if board.row.daily is not None and game.undo_player_id is not None:
        # a private board is also its scoring's summary: the Undo is on it, until the roll
        controls.append(UndoButton(gid, turn - 1).button(_("Undo")).to_component_dict())
    if board.row.hints:
        hint = HintButton(gid).button(
            _("Hint"), emoji="\N{ELECTRIC LIGHT BULB}", disabled=computer, row=1
        )
        controls.append(hint.to_component_dict())
    options = [] if computer else box_options(_, game, board.best_box, faces)
    waiting = (
        _("The computer is playing its turn") if computer else _("Roll first, then pick a box")
    )
    menu = BoxSelect(gid, turn, rolls).payload(
        options, waiting, _("Pick a box to score"), _("Roll first")
    )
    return Payload([action_row(*dice), action_row(*controls), action_row(menu)])

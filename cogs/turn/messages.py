"""What a turn leaves behind and what players ask about it: a scoring's summary and its
Undo, a private scorecard, the boards a game retired (ended, moved, out of date, a player
left, waiting after an Undo), the rules, the confirmation of /yahtzee end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.engine import (
    FULL_HOUSE_POINTS,
    LARGE_STRAIGHT_POINTS,
    ROLLS_PER_TURN,
    ROUNDS,
    SMALL_STRAIGHT_POINTS,
    UPPER_BONUS_POINTS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_POINTS,
    Category,
    Preset,
    Seat,
)
from bot.games import Card, GameStatus, GameView, Scored, code_block, rematch_callers
from bot.games.replay import Turn
from bot.i18n import Lang
from bot.i18n.words import N_
from cogs.lobby.controls import PlayAgainButton
from cogs.shared.controls import Button, Controls
from cogs.shared.emojis import DiceFaces
from cogs.shared.language import public
from cogs.shared.text import GREEN, GREY, mention, png, shown_name
from cogs.shared.wording import ending

from .board import NUMBERS
from .controls import (
    BoardButton,
    CardSelect,
    EndConfirmButton,
    QuitButton,
    QuitConfirmButton,
    RejoinButton,
    RulesButton,
    UndoButton,
)

CARD_FILE = "scorecard.png"


def summary_embed(
    scored: Scored, timed_out: bool = False, away: bool = False, faces: DiceFaces = NUMBERS,
    played_as: str | None = None, by_click: bool = False,
) -> discord.Embed:  # fmt: skip
    """A finished turn, in text only: who scored what. Its picture goes (it showed the dice
    before the scoring, and a game's channel is read on phones): edit it in with
    ``attachments=[]``, which also keeps Discord from showing the old picture loose.
    ``played_as``: the bot that played a timed-out turn ("optimal", "casual"), if one did.
    ``by_click``: a place where most players cannot type /yahtzee (a group DM)."""
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
        if away and by_click:
            text += " " + _(
                "They timed out twice in a row and are skipped from now on; Rejoin, under "
                "their Scorecard, brings them back."
            )
        elif away:
            text += " " + _(
                "They timed out twice in a row and are skipped from now on; "
                "`/yahtzee rejoin` brings them back."
            )
    embed = discord.Embed(
        title=_("Yahtzee: round {round} of {rounds}", round=scored.round, rounds=ROUNDS),
        description=text,
        colour=GREY,
    )
    if scored.board.row.status == GameStatus.ACTIVE:  # else the final card or why it ended
        embed.set_footer(text=_("This turn is over; the live board is below."))
    return embed


def undo_view(_: Lang, game_id: int, turn: int) -> discord.ui.View:
    """Only the Undo button, for the player who just scored."""
    view = Controls()
    view.add_item(UndoButton(game_id, turn).button(_("Undo")))
    return view


def card_menu(_: Lang, card: Card, more: Sequence[Button] = ()) -> discord.ui.View:
    """The menu of a game's players under a private scorecard (none for a solo game), and
    the buttons of ``more`` in a row below it."""
    view = Controls()
    if len(card.seats) > 1:
        options = [
            discord.SelectOption(
                label=name[:100] or "?", value=player, default=player == card.shown
            )
            for player, name in card.seats
        ]
        view.add_item(CardSelect(card.game_id).select(options, _("See another player's card")))
    for button in more:
        view.add_item(button)
    return view


def card_message(_: Lang, card: Card, more: Sequence[Button] = ()) -> dict[str, Any]:
    """A scorecard, only for its asker: as text, and as a picture where files may go; in a
    game of more than one seat, with a menu of every player's card (one readable column at
    a time on a phone, another one tap away); ``more``: the buttons of ``more_buttons``
    below. The fields of the answer or of its edit."""
    files = [png(card.image, CARD_FILE)] if card.image is not None else []
    text = f"**{shown_name(card.name)}**\n{code_block(card.text)}"
    return {"content": text, "files": files, "view": card_menu(_, card, more)}


def more_buttons(_: Lang, game_id: int, seat: Seat | None) -> list[Button]:
    """Where most players cannot type /yahtzee (a group DM), what a player needs besides
    the board, under the private scorecard the Scorecard button answers with: the rules, the
    board again at the bottom, and for a player still seated (``seat``, the clicker's) Leave
    (it asks first), or Rejoin and Leave for one away. One row, only for the clicker: the
    live board keeps its three rows."""
    buttons = [
        RulesButton(game_id).button(_("Rules"), emoji="\N{OPEN BOOK}", row=1),
        BoardButton(game_id).button(_("Board"), emoji="\N{DOWNWARDS BLACK ARROW}", row=1),
    ]
    if seat is not None and not seat.left:
        if seat.away:
            rejoin = RejoinButton(game_id).button(_("Rejoin"), discord.ButtonStyle.success, row=1)
            buttons.append(rejoin)
        buttons.append(QuitButton(game_id).button(_("Leave"), emoji="\N{DOOR}", row=1))
    return buttons


def quit_view(_: Lang, game_id: int) -> discord.ui.View:
    """The confirmation of leaving a game by a click (``QuitButton``)."""
    return Controls(
        QuitConfirmButton(game_id).button(_("Leave the game"), discord.ButtonStyle.danger)
    )


#: What a board (or lobby) left behind by /yahtzee board says.
BOARD_MOVED = N_("This board moved to the bottom.")  # a channel, a group DM, a chat alike


def ended_embed(_: Lang, reason: str) -> discord.Embed:
    """A board retired because the game ended early (``reason`` in ``_``'s language)."""
    return discord.Embed(title=_("Yahtzee: game ended"), description=reason, colour=GREY)


def ended_fields(row: GameView, reason: str, by_click: bool, start: bool = True) -> dict[str, Any]:
    """What a game's board (or its Undo's summary) shows once the game ended without a result
    (``reason``: why, in the game's language): its ``ending_embed`` and, where the bot only
    answers clicks (``by_click``: a group DM, where most players cannot type /yahtzee start),
    Play again for the players still in it. ``start``: say how a new game starts."""
    _ = public(row)
    again = by_click and row.game is not None and row.daily is None and rematch_callers(row.game)
    embed = ended_embed(_, ending(_, reason, by_click, again, start))
    if not again:
        return {"embed": embed}
    button = PlayAgainButton(row.id).button(_("Play again"), discord.ButtonStyle.success)
    return {"embed": embed, "view": Controls(button)}


def moved_embed(_: Lang) -> discord.Embed:
    """A board left behind by /yahtzee board."""
    return discord.Embed(title=_("Yahtzee: board moved"), description=_(BOARD_MOVED), colour=GREY)


def moved_to_embed(_: Lang, link: str) -> discord.Embed:
    """A board left behind when a click on an older one brought the board back there (a
    place only clicks reach: a group DM): where the live board is now."""
    return discord.Embed(
        title=_("Yahtzee: board moved"),
        description=_("The live board is now here: {link}", link=link),
        colour=GREY,
    )


def moved_on_embed(_: Lang, finished: bool = False, since: Sequence[Turn] = ()) -> discord.Embed:
    """A board the game left behind (a restart, a repair): it says so, instead of still
    asking someone to roll without buttons to do it; ``since``: the turns played that no
    message showed (a timer where nobody clicked), each named with its box."""
    text = (
        _("This game is over: the final scorecard is below.")
        if finished
        else _("The game moved on: the live board is below.")
    )
    embed = discord.Embed(title=_("Yahtzee: board out of date"), description=text, colour=GREY)
    if since:
        lines = []
        for turn in since:
            box = _(turn.box.label) if turn.box is not None else "?"
            bonus = f" +{turn.bonus}" if turn.bonus else ""
            timer = " " + _("(time ran out)") if turn.by == "timeout" else ""
            lines.append(f"**{shown_name(turn.name)}**: {box} {turn.points}{bonus}{timer}")
        embed.add_field(name=_("Played since this board"), value="\n".join(lines), inline=False)
    return embed


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


def end_confirm_view(_: Lang, game_id: int) -> discord.ui.View:
    """The confirmation button for /yahtzee end."""
    view = Controls()
    view.add_item(EndConfirmButton(game_id).button(_("End the game"), discord.ButtonStyle.danger))
    return view


def rules_text(_: Lang, preset: Preset, undo: str, by_click: bool = False) -> str:
    """The rules in a few lines, with what the preset in play changes; ``undo``: the Undo
    button's label as the channel's games show it. ``by_click``: where only those who added
    the app can type /yahtzee (a group DM), how a preset is picked says so."""
    picks = (
        _(
            "Whoever added the app picks one with `/yahtzee start preset:`; Play again keeps "
            "the preset of the game."
        )
        if by_click
        else _("The host picks one with `/yahtzee start preset:`.")
    )
    rules = _(
        "**Yahtzee**: {rounds} rounds; each turn roll five dice up to {rolls} times, holding "
        "any dice between rolls, then score them in one open box (0 if they don't fit).\n"
        "**Upper boxes** (Ones to Sixes) score the dice of that face; {threshold} or more "
        "earns +{bonus}.\n"
        "**Lower boxes**: Three/Four of a Kind score all five dice; Full House {full_house}; "
        "Small Straight (four in a row) {small}; Large Straight (five in a row) {large}; "
        "Yahtzee (five alike) {yahtzee}; Chance the sum.\n"
        "**Preset in play: {preset}**: {description}\n"
        "**{undo}**: after scoring, {undo} on that message takes it back until the next roll.\n"
        "Other presets: {others}.",
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
    return f"{rules} {picks}"


def rules_embed(_: Lang, preset: Preset, undo: str, by_click: bool = False) -> discord.Embed:
    """/yahtzee rules, or the Rules button: the rules in a few lines (``rules_text``)."""
    return discord.Embed(
        title=_("Yahtzee rules"),
        description=rules_text(_, preset, undo=undo, by_click=by_click),
        colour=GREEN,
    )

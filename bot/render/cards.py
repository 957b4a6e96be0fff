"""The game's pictures: the turn image, the final image and one player's scorecard.

Pure functions from engine state to PNG bytes. Everything that does not change within a
game (the dice sprites, the empty grid for a seat count, the column of labels in each
language, every text tile) is drawn once and cached; a call pastes the pieces that changed
and encodes a palette PNG.

Every word is in the game's language (``language``, a ``bot.i18n`` catalog code): each is
written ``_("...")`` here, with its English text, so ``scripts/i18n.py`` finds it; the boxes'
names are the engine's (``_(category.label)``).
"""

from __future__ import annotations

import io

from PIL import Image

from bot.engine import (
    DICE_COUNT,
    ROLLS_PER_TURN,
    ROUNDS,
    Game,
)
from bot.i18n import ENGLISH, Lang, lang

from . import style as s
from .names import draw_names, header_pad, names_fit
from .sheet import (
    FONT,
    HEADER_MIN_FONT,
    PLACE,
    STATUS_MIN_FONT,
    Layout,
    cell_background,
    die_sprite,
    draw_cell_text,
    draw_column,
    draw_labels,
    draw_line,
    draw_title,
    grid_base,
    layout,
    shrink_to_fit,
)
from .text import clean, text_tile, text_width


def dice_slot(index: int) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) of die ``index``'s sprite on the felt strip."""
    x = s.PAD + index * (s.DIE_SIZE + s.DIE_GAP)
    y = (s.STRIP_H - s.DIE_SIZE) // 2
    return (x, y, x + s.DIE_SIZE, y + s.DIE_SIZE)


DICE_ROW_W = dice_slot(DICE_COUNT - 1)[2]


def _draw_dice(image: Image.Image, game: Game) -> None:
    # The dice as rolled, never which are held: a hold changes only the board's buttons
    # (the picture is not drawn again for it), so the picture must not show holds either.
    for i in range(DICE_COUNT):
        x, y, _, _ = dice_slot(i)
        image.paste(die_sprite(game.dice[i] if game.dice is not None else None, False), (x, y))


def _strip_text(image: Image.Image, width: int, game: Game, language: str) -> None:
    """Beside the dice: whose turn it is and the preset, then the round and the roll."""
    _ = lang(language)
    x = DICE_ROW_W + 2 * s.PAD
    inner = width - x - s.PAD
    half = s.STRIP_H // 2
    preset = _(game.preset.title)
    # the preset may take half the line, or what a short name leaves (a long preset name)
    name_needs = round(text_width(clean(game.current_seat.name, FONT, True), FONT, True)) + 4
    preset_w = min(max(inner // 2, inner - s.PAD - name_needs), round(text_width(preset, FONT)) + 4)
    name_w = inner - preset_w - s.PAD
    draw_line(image, x, 4, name_w, half - 4, game.current_seat.name, s.FELT_TEXT, True)
    preset, size = shrink_to_fit((preset,), preset_w, FONT, STATUS_MIN_FONT)  # a long name
    tile = text_tile(preset, preset_w, half - 4, s.FELT_MUTED, s.FELT, size, False, "right")
    image.paste(tile, (x + inner - preset_w, 4))
    status, size = shrink_to_fit((_status(game, _),), inner, FONT, STATUS_MIN_FONT)
    tile = text_tile(status, inner, half - 4, s.FELT_TEXT, s.FELT, size, False, "left")
    image.paste(tile, (x, half))


#: zlib level of the live board, drawn at every click: level 2 encodes in 1.3 ms instead of
#: level 6's 3.2 ms (2 seats), for 25 KB instead of 21 KB. Images drawn once keep level 6.
LIVE_BOARD_COMPRESSION = 2


def _encode(image: Image.Image, level: int = 6) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=level)
    return buffer.getvalue()


def _status(game: Game, _: Lang) -> str:
    if game.dice is None:
        # TRANSLATORS: beside the dice before the turn's first roll; about 250 px at most.
        return _("Round {round}/{rounds} · to roll", round=game.round, rounds=ROUNDS)
    # TRANSLATORS: beside the dice: the round, and which of the turn's three rolls it is.
    return _("Round {round}/{rounds} · Roll {roll} of {rolls}", round=game.round,
             rounds=ROUNDS, roll=game.rolls_used, rolls=ROLLS_PER_TURN)  # fmt: skip


def turn_image(game: Game, language: str = ENGLISH) -> Image.Image:
    """The live board: the dice (holds are on the buttons only), then every seat's column, the
    current one previewed; its words in ``language``."""
    seats = len(game.seats)
    current = game.current
    lay = layout(seats, s.STRIP_H, min_width=s.BOARD_MIN_WIDTH)
    image = grid_base(seats, frozenset({current}), s.STRIP_H, False, lay.width).copy()
    draw_labels(image, lay, language)
    _draw_dice(image, game)
    _strip_text(image, lay.width, game, language)
    draw_names(image, lay, game.seats, frozenset(), current, language)
    seat = game.current_seat
    preview = game.options() if game.dice is not None else None
    joker = game.dice is not None and seat.card.joker_applies(game.dice)
    for c, other in enumerate(game.seats):
        is_current = c == current
        bonus = 0
        if is_current and game.dice is not None:
            bonus = other.card.bonus_for(game.dice) or (
                100 if other.card.bonus_turn_available(game.dice) else 0
            )
        draw_column(image, lay, c, other, is_current, preview if is_current else None, joker, bonus)
    return image


def render_turn(game: Game, language: str = ENGLISH) -> bytes:
    """PNG bytes of the live board for ``game``, its words in ``language``."""
    return _encode(turn_image(game, language), LIVE_BOARD_COMPRESSION)


def final_title(game: Game, language: str = ENGLISH) -> str:
    """The final sheet's title: who won; in a game of one seat (a solo game, a daily
    challenge), where nobody wins against anybody, the score."""
    _ = lang(language)
    if len(game.seats) == 1:  # the name is the column's: a long one would hide the score
        total = game.seats[0].card.total
        # TRANSLATORS: the final sheet's title of a game played alone (no winner, no places):
        # its score.
        return _.ngettext("Game over · {points} point", "Game over · {points} points", total,
                          points=total)  # fmt: skip
    winners = [st.seat for st in game.standings() if st.place == 1]
    names = ", ".join(game.seats[w].name for w in sorted(winners))
    if names:
        # TRANSLATORS: the final sheet's title; {names} is one winner or several (a tie).
        return _.ngettext("Game over · {names} won", "Game over · {names} won",
                          len(winners), names=names)  # fmt: skip
    return _("Game over · nobody won")


def final_layout(game: Game, language: str = ENGLISH) -> Layout:
    """The final sheet's geometry. Alone, as wide as the game's boards were (room for a
    title that says the score). At 3 or 4 seats, whose columns side by side are too narrow
    for names such as "Optimal bot", the sections stand one above the other when a name
    would be cut otherwise: the picture is not a live board, whose die buttons and box menu
    must fit on a phone's screen beside it, and the names head their columns whole."""
    seats, top = len(game.seats), s.BOARD_TITLE_H
    if seats == 1:
        return layout(1, top, final=False, min_width=s.BOARD_MIN_WIDTH)
    _ = lang(language)
    side = layout(seats, top, final=True)
    names = tuple(seat.name for seat in game.seats)
    if len(side.panels) == 2 and not names_fit(names, side.col_w, _("Player")):
        return layout(seats, top, final=True, stacked=True)
    return side


def final_image(game: Game, language: str = ENGLISH) -> Image.Image:
    """The final sheet: every column, winners highlighted, and a row of places (a game of
    one seat has neither: its title says the score)."""
    _ = lang(language)
    top = s.BOARD_TITLE_H
    ranked = len(game.seats) > 1
    standings = game.standings()
    winners = frozenset(st.seat for st in standings if st.place == 1) if ranked else frozenset()
    lay = final_layout(game, language)
    stacked = len(lay.panels) == 1
    image = grid_base(len(game.seats), winners, top, ranked, lay.width, stacked).copy()
    draw_labels(image, lay, language)
    draw_title(image, lay.width, final_title(game, language), _(game.preset.title))
    draw_names(image, lay, game.seats, winners, None, language)
    place_of = {st.seat: st.place for st in standings}
    pad = header_pad(lay.col_w)  # a narrow column's place may use it all, as its name does
    for c, seat in enumerate(game.seats):
        draw_column(image, lay, c, seat, c in winners, None, False, 0)
        if not ranked:
            continue
        place = place_of.get(c)
        # TRANSLATORS: the place of a player who left the game before its end; a short word.
        label = ordinal(place, language) if place is not None else _("left")
        fg = s.INK if place is not None else s.MUTED
        text, size = shrink_to_fit((label,), lay.col_w - 2 * pad, FONT, HEADER_MIN_FONT, True)
        bg = cell_background(PLACE, c in winners)
        draw_cell_text(image, lay, c, PLACE, text, fg, bg, True, size=size, pad=pad)
    return image


def render_final(game: Game, language: str = ENGLISH) -> bytes:
    """PNG bytes of the final scorecard with places, winners highlighted."""
    return _encode(final_image(game, language))


def scorecard_image(game: Game, seat_index: int, language: str = ENGLISH) -> Image.Image:
    """One player's sheet; their open boxes are previewed if it is their turn and dice lie."""
    _ = lang(language)
    seat = game.seats[seat_index]
    top = s.BOARD_TITLE_H
    lay = layout(1, top)
    is_current = seat_index == game.current and not game.is_over
    image = grid_base(
        1, frozenset({0}) if is_current else frozenset(), top, False, lay.width
    ).copy()
    draw_labels(image, lay, language)
    total = seat.card.total
    # TRANSLATORS: the scorecard's title: the player's name and their points so far.
    title = _.ngettext("{name} · {points} point", "{name} · {points} points", total,
                       name=seat.name, points=total)  # fmt: skip
    draw_title(image, lay.width, title, _(game.preset.title))
    draw_names(image, lay, [seat], frozenset(), 0 if is_current else None, language)
    preview = game.options() if is_current and game.dice is not None else None
    joker = preview is not None and game.dice is not None and seat.card.joker_applies(game.dice)
    bonus = 0
    if preview is not None and game.dice is not None:
        bonus = seat.card.bonus_for(game.dice)
    draw_column(image, lay, 0, seat, is_current, preview, joker, bonus)
    return image


def render_scorecard(game: Game, seat_index: int, language: str = ENGLISH) -> bytes:
    """PNG bytes of one player's scorecard."""
    return _encode(scorecard_image(game, seat_index, language))


def ordinal(place: int, language: str = ENGLISH) -> str:
    """A place as ``language`` writes it: 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st in
    English; 1., 2. in German, 1er, 2e in French... (by CLDR's ordinal categories)."""
    _ = lang(language)
    form = _.locale.ordinal_form(place)
    if form == "one":
        # TRANSLATORS: a place, by CLDR's ordinal category of the number: "one" (English
        # 1, 21, 31: 1st; French 1: "{n}er"). A language without it writes it as "{n}th".
        return _("{n}st", n=place)
    if form == "two":
        # TRANSLATORS: a place, CLDR's ordinal category "two" (English 2, 22: 2nd); else as "{n}th".
        return _("{n}nd", n=place)
    if form == "few":
        # TRANSLATORS: a place, CLDR's ordinal category "few" (English 3, 23: 3rd); else as "{n}th".
        return _("{n}rd", n=place)
    # TRANSLATORS: a place, every other number (4th, 11th; German "{n}.", French "{n}e").
    return _("{n}th", n=place)

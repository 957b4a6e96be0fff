"""What the coaching says: the hint's best choices (and the move with the best chance to
win), a chance in words, a player's report card."""

from __future__ import annotations

from bot.engine import ROLLS_PER_TURN, Game
from bot.games import Choice, Report, WinHint
from bot.i18n import Lang
from cogs.shared.text import shown_name


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

"""The rule sets a server can choose between, each described by what it changes.

A preset is data: every rule that differs between presets is a field of its ``PresetRules``
(the Joker, what a Joker may scratch, bonus turns), read by the scorecard and the solver;
nothing else in the project asks which preset it holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.i18n.words import N_

from .errors import InvalidGame

#: How many Yahtzee bonuses a card may take under ``bonus-turn``.
BONUS_TURN_LIMIT = 3


@dataclass(frozen=True, slots=True)
class PresetRules:
    """What a rule set says where the rule texts differ (see RULES.md)."""

    #: a short human name (a catalog message id)
    title: str
    #: one sentence on what it changes (a catalog message id)
    description: str
    #: a later Yahtzee with the Yahtzee box filled is a forced Joker
    joker: bool
    #: with the Joker's own upper box filled, any open upper box may be scratched for 0 beside
    #: the open lower boxes (the relaxed Joker)
    joker_may_scratch_upper: bool
    #: how many Yahtzee bonuses a card may take as turns of their own, each using up a turn
    #: without filling a box (0: bonuses ride on a box, as under the Joker)
    bonus_turns: int


class Preset(Enum):
    """A rule set; the value is its stable name in settings and saved games, ``rules`` what
    it says."""

    rules: PresetRules

    OFFICIAL = (
        "official",
        PresetRules(
            title=N_("Official"),
            description=N_(
                "Hasbro rules: a later Yahtzee earns +100 if the Yahtzee box holds 50, and is "
                "a forced Joker: its upper box if open, else any open lower box at full value, "
                "else an upper box for 0."
            ),
            joker=True,
            joker_may_scratch_upper=False,
            bonus_turns=0,
        ),
    )
    RELAXED_JOKER = (
        "relaxed-joker",
        PresetRules(
            title=N_("Relaxed Joker"),
            description=N_(
                "As official, but when the Joker's upper box is filled you may also scratch "
                "any open upper box for 0 instead of using a lower box."
            ),
            joker=True,
            joker_may_scratch_upper=True,
            bonus_turns=0,
        ),
    )
    BONUS_TURN = (
        "bonus-turn",
        PresetRules(
            title=N_("Bonus Turn"),
            description=N_(
                "No Joker: a later Yahtzee with 50 in the Yahtzee box may be taken as a bonus "
                "(+100, at most 3 a game) that uses up the turn without filling a box; or "
                "score it normally in any open box."
            ),
            joker=False,
            joker_may_scratch_upper=False,
            bonus_turns=BONUS_TURN_LIMIT,
        ),
    )

    def __new__(cls, name: str, rules: PresetRules) -> Preset:
        member = object.__new__(cls)
        member._value_ = name
        member.rules = rules
        return member

    @property
    def title(self) -> str:
        """A short human name."""
        return self.rules.title

    @property
    def description(self) -> str:
        """One sentence on what this preset changes."""
        return self.rules.description

    @property
    def bonus_turns(self) -> int:
        """How many Yahtzee bonuses a card may take as turns of their own (0 under the Joker
        presets)."""
        return self.rules.bonus_turns

    @classmethod
    def parse(cls, value: str | Preset) -> Preset:
        """Find a preset by name, with a readable error (``InvalidGame``, a ``ValueError``)
        for an unknown one."""
        if isinstance(value, Preset):
            return value
        name = value.strip().lower().replace("_", "-").replace(" ", "-")
        for preset in cls:
            if preset.value == name:
                return preset
        raise InvalidGame(
            "There is no preset called {name}; choose one of {names}.",
            name=repr(value),
            names=", ".join(p.value for p in cls),
        )


DEFAULT_PRESET = Preset.OFFICIAL

"""The rule sets a server can choose between."""

from __future__ import annotations

from enum import Enum

from bot.i18n.words import N_

from .errors import InvalidGame


class Preset(Enum):
    """A rule set; the value is its stable name in settings and saved games."""

    OFFICIAL = "official"
    RELAXED_JOKER = "relaxed-joker"
    BONUS_TURN = "bonus-turn"

    @property
    def title(self) -> str:
        """A short human name."""
        return _TITLES[self]

    @property
    def description(self) -> str:
        """One sentence on what this preset changes."""
        return _DESCRIPTIONS[self]

    @property
    def bonus_turns(self) -> int:
        """How many Yahtzee bonuses a card may take as turns of their own, each using up a
        turn without filling a box (``bonus-turn``); 0 under the Joker presets."""
        return BONUS_TURN_LIMIT if self is Preset.BONUS_TURN else 0

    @classmethod
    def parse(cls, value: str | Preset) -> Preset:
        """Find a preset by name, with a readable error (``InvalidGame``, a ``ValueError``)
        for an unknown one."""
        if isinstance(value, Preset):
            return value
        try:
            return cls(value.strip().lower().replace("_", "-").replace(" ", "-"))
        except ValueError:
            names = ", ".join(p.value for p in cls)
            raise InvalidGame(
                "There is no preset called {name}; choose one of {names}.",
                name=repr(value),
                names=names,
            ) from None


DEFAULT_PRESET = Preset.OFFICIAL

#: How many Yahtzee bonuses a card may take under ``bonus-turn``.
BONUS_TURN_LIMIT = 3

_TITLES = {
    Preset.OFFICIAL: N_("Official"),
    Preset.RELAXED_JOKER: N_("Relaxed Joker"),
    Preset.BONUS_TURN: N_("Bonus Turn"),
}

_DESCRIPTIONS = {
    Preset.OFFICIAL: N_(
        "Hasbro rules: a later Yahtzee earns +100 if the Yahtzee box holds 50, and is a "
        "forced Joker: its upper box if open, else any open lower box at full value, "
        "else an upper box for 0."
    ),
    Preset.RELAXED_JOKER: N_(
        "As official, but when the Joker's upper box is filled you may also scratch any "
        "open upper box for 0 instead of using a lower box."
    ),
    Preset.BONUS_TURN: N_(
        "No Joker: a later Yahtzee with 50 in the Yahtzee box may be taken as a bonus "
        "(+100, at most 3 a game) that uses up the turn without filling a box; or score it "
        "normally in any open box."
    ),
}

"""Sentences said before anyone knows who will read them: the rules' refusals (the engine),
the service's, the names of boxes and presets. They are kept in English with their values
apart, and put into the reader's language where they are shown (``bot.i18n.Lang.say``).

Nothing here reads a catalog (the engine imports this module, and stays free of Babel)."""

from __future__ import annotations

import json
from collections.abc import Mapping


class Word(str):
    """An English word or phrase that has its own entry in the catalogs (a box's name, a
    preset's), used as a value inside another sentence: said in the reader's language."""

    __slots__ = ()


class Name(str):
    """A person's name as they chose it, used as a value inside a sentence: it may hold
    markdown or link syntax, so where a sentence is shown as message text it is shown as
    typed (``Lang.say``'s ``names``), never as markup."""

    __slots__ = ()


class Words(tuple[str, ...]):
    """English words, each with its entry in the catalogs, listed as one value of a
    sentence ("Threes, Fours"): each said in the reader's language, joined by ", "."""

    __slots__ = ()

    def __str__(self) -> str:
        return ", ".join(self)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Label(str):
    """The label of a control on a game's message ("Start", "Undo"), named in a sentence
    said to one reader: said in the game's ``language`` (the words on the button the reader
    sees, since a game's messages are in its language), not in the reader's own."""

    language: str

    def __new__(cls, text: str, language: str) -> Label:
        label = super().__new__(cls, text)
        label.language = language
        return label

    def __reduce__(self) -> tuple[type[Label], tuple[str, str]]:
        return Label, (str(self), self.language)


def N_(text: str) -> str:
    """Mark ``text`` for the catalogs where it is written; it is translated where shown."""
    return text


class Sentence:
    """A sentence with its values kept apart (``str.format`` fields): its English text is
    ``str(self)``; ``template`` and ``values`` let a reader's language say it."""

    template: str
    values: Mapping[str, object]

    def set_sentence(self, template: str, values: Mapping[str, object]) -> str:
        self.template = template
        self.values = dict(values)
        return template.format(**values) if values else template


class Said(Sentence):
    """A sentence as a value (a move described, a choice in a hint): ``str(said)`` is its
    English; ``Lang.say`` says it in a reader's language."""

    def __init__(self, template: str, /, **values: object) -> None:
        self.text = self.set_sentence(template, values)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Said({self.text!r})"


def said_text(said: Said) -> str:
    """A sentence kept as text (a decision in the move log): JSON of its template and
    values, a ``Word`` or a nested sentence among them marked, so that a reader in any
    language can have it said later (``said_of``)."""

    def value(v: object) -> object:
        if isinstance(v, Word):
            return {"w": str(v)}
        if isinstance(v, Sentence):
            return {"s": {"t": v.template, "v": {k: value(x) for k, x in v.values.items()}}}
        return v

    return json.dumps({"t": said.template, "v": {k: value(v) for k, v in said.values.items()}})


def said_of(text: str) -> Said | str:
    """A sentence kept by ``said_text``; any other text (a decision logged in English by an
    older version) as it is."""
    if not text.startswith('{"t"'):
        return text
    try:
        data = json.loads(text)
    except ValueError:
        return text

    def value(v: object) -> object:
        if isinstance(v, dict) and "w" in v:
            return Word(v["w"])
        if isinstance(v, dict) and "s" in v:
            return sentence(v["s"])
        return v

    def sentence(d: dict[str, object]) -> Said:
        values = d.get("v") if isinstance(d.get("v"), dict) else {}
        assert isinstance(values, dict)
        return Said(str(d["t"]), **{str(k): value(x) for k, x in values.items()})

    return sentence(data)

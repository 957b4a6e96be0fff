"""A bot's clicks, routed: each kind of control to the one method marked to handle it
(``@handles(RollButton)`` in the feature's ``cog.py``). A ``Router`` is made per bot, from
that bot's cogs (two bots in one process each have their own), and refuses at start-up a
kind of control with two handlers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord

from bot import logs
from bot.games import begin as begin_request

from .controls import PREFIX, Control, SelectControl, handled
from .errors import run_guarded

#: A handler bound to its cog, called with the click and a select's chosen value.
Bound = Callable[[discord.Interaction[Any], Any, str], Awaitable[None]]


class Router:
    """Which handler of which cog a click on each kind of control calls."""

    def __init__(self, cogs: Iterable[object] = ()) -> None:
        self._handlers: dict[type[Control], Bound] = {}
        self._owners: dict[type[Control], object] = {}
        self._keys: dict[str, list[type[Control]]] = {}  # several kinds may share one: ``set``
        for cog in cogs:
            self.add(cog)

    def add(self, cog: object) -> None:
        """The handlers of ``cog`` (a feature loaded): ``TypeError`` for a kind of control
        another cog handles already."""
        seen: set[str] = set()
        for cls in type(cog).__mro__:  # a method overridden in a subclass counts once
            for name, method in vars(cls).items():
                control = handled(method)
                if control is None or name in seen:
                    continue
                seen.add(name)
                if control in self._handlers:
                    raise TypeError(f"{control.__name__} has two handlers (one is {name})")
                self._handlers[control] = _bind(control, method.__get__(cog))
                self._owners[control] = cog
                self._keys.setdefault(_first(control.key), []).append(control)

    def remove(self, cog: object) -> None:
        """The handlers of ``cog`` go (its feature unloaded): its clicks find no handler."""
        for control in [c for c, owner in self._owners.items() if owner is cog]:
            del self._handlers[control], self._owners[control]
            self._keys[_first(control.key)].remove(control)
            if not self._keys[_first(control.key)]:
                del self._keys[_first(control.key)]

    @property
    def controls(self) -> frozenset[type[Control]]:
        """The kinds of control this bot handles."""
        return frozenset(self._handlers)

    def route(self, custom_id: str) -> Control | None:
        """The click ``custom_id`` names, typed; None for an id no control of this bot has
        (a forged or mangled one)."""
        parts = custom_id.split(":", 2)
        if len(parts) < 2 or parts[0] != PREFIX:
            return None
        for cls in self._keys.get(parts[1], ()):
            click = cls.parse(custom_id)
            if click is not None:
                return click
        return None

    async def dispatch(self, interaction: discord.Interaction[Any], click: Control) -> None:
        """Call the handler of ``click`` (with a select's choice), guarded: every error is
        answered (``errors.handle_error``), and the answer comes in time."""
        begin_request(interaction.id)  # this task handles this click: its change is made once
        game_id = click.game()
        if game_id is not None:
            logs.bind(game_id=game_id)
        handler = self._handlers[type(click)]
        value = chosen(interaction) if isinstance(click, SelectControl) else ""
        await run_guarded(interaction, lambda: handler(interaction, click, value))


def _first(key: str) -> str:
    """The part of a control's key its custom_id's second field is (``lobby`` of
    ``lobby:join``: a kind may carry a fixed word of its own after the key it shares)."""
    return key.split(":", 1)[0]


def chosen(interaction: discord.Interaction[Any]) -> str:
    """A select's chosen value ("" if none)."""
    data: dict[str, Any] = dict(interaction.data or {})
    values = data.get("values") or []
    return str(values[0]) if values else ""


def _bind(control: type[Control], method: Callable[..., Awaitable[None]]) -> Bound:
    if issubclass(control, SelectControl):
        return method

    async def button(interaction: discord.Interaction[Any], click: Any, value: str) -> None:
        await method(interaction, click)

    return button

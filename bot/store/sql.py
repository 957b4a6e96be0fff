"""How a plan speaks SQL: ``Query`` and ``Plan``, the two kinds of plan a store runs
(``ReadPlan``, ``WritePlan``), and ``Shape``: how a record is read from a row, by column name.

A plan is a generator that yields ``Query`` objects and gets each one's rows back; it
returns its result. It never touches a connection: a backend drives it (SQLite on its
writer thread, synchronously; PostgreSQL with asyncpg, awaiting), so the statements and the
logic around them (the version check, the channel's one live game, the results written with
the finishing move) exist once. The SQL is written with ``?`` placeholders in what both
dialects accept; where they differ a ``Query`` carries PostgreSQL's text too.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, ParamSpec, TypeVar, cast

P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
T = TypeVar("T")

#: A row as a backend hands it to a plan: the values of the statement's columns, in order.
Row = Sequence[Any]


@dataclass(frozen=True, slots=True)
class Query:
    """One statement of a plan and its parameters.

    ``many``: run once per row of ``params`` (which is then a list of rows). ``conflicts``:
    the statement may break a unique constraint, which the plan handles (it gets
    ``Conflict`` thrown in); PostgreSQL runs such a statement in a savepoint, because there
    a failed statement would end the whole transaction. ``postgres``: that dialect's text,
    where it differs.
    """

    sql: str
    params: Sequence[Any] = ()
    many: bool = False
    conflicts: bool = False
    postgres: str | None = None


#: A plan: yields queries, is sent each one's rows, returns its result.
Plan = Generator[Query, list[Row], R]


class Conflict(Exception):
    """A statement marked ``conflicts`` broke a unique constraint (thrown into its plan)."""


class ReadPlan(Generic[P, R_co]):
    """A plan that only reads: ``await store.read(plans.get_game, game_id)``. The store runs
    it on its reading connection (never behind a write); inside another plan it is a step,
    ``yield from get_game(game_id)``."""

    def __init__(self, make: Callable[P, Plan[R_co]]) -> None:
        self.make = make
        functools.update_wrapper(self, make)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Plan[R_co]:
        return self.make(*args, **kwargs)


class WritePlan(Generic[P, R_co]):
    """A plan that writes: ``await store.write(plans.update_game, ...)`` runs it as one unit
    of work, committed whole or not at all (made again from its arguments if the backend
    must run it again: a deadlock undone, a batch that failed); inside another write plan it
    is a step, ``yield from update_game(...)``."""

    def __init__(self, make: Callable[P, Plan[R_co]]) -> None:
        self.make = make
        functools.update_wrapper(self, make)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Plan[R_co]:
        return self.make(*args, **kwargs)


class Shape(Generic[T]):
    """A record as a row holds it: each of its fields is the column of the same name (or
    the SQL expression ``sql`` gives for it, selected under that name), its value turned
    into the field's type by ``decode`` where the database keeps it otherwise (JSON text,
    0 and 1 for a bool). ``columns`` is the select list, the fields' names in their order,
    so a row selected with it holds each field's value at the field's place; calling the
    shape reads such a row. The one place a row becomes a record, for both databases."""

    def __init__(
        self,
        record: Callable[..., T],
        names: Sequence[str],
        sql: Mapping[str, str] | None = None,
        decode: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> None:
        self._record = record
        self.names = tuple(names)
        sql = sql or {}
        decode = decode or {}
        unknown = (set(sql) | set(decode)) - set(self.names)
        if unknown:
            raise ValueError(f"{record} has no fields {sorted(unknown)}")
        self.columns = ", ".join(
            f"{sql[name]} AS {name}" if name in sql else name for name in self.names
        )
        #: (the column's place in the select list, how its value is read), by name
        self._decode = tuple((self.names.index(name), how) for name, how in decode.items())

    def __call__(self, row: Row) -> T:
        if len(row) != len(self.names):
            raise ValueError(f"a row of {len(row)} values for the {len(self.names)} columns")
        if not self._decode:
            return self._record(*row)
        values = list(row)
        for place, decode in self._decode:
            value = values[place]
            if value is not None:
                values[place] = decode(value)
        return self._record(*values)


def shape_of(
    record: type[T],
    sql: Mapping[str, str] | None = None,
    decode: Mapping[str, Callable[[Any], Any]] | None = None,
) -> Shape[T]:
    """The ``Shape`` of a dataclass or a named tuple: its fields, in order, are its columns."""
    if dataclasses.is_dataclass(record):
        fields = dataclasses.fields(record)
        if any(f.kw_only is True for f in fields):
            raise TypeError(f"{record} is made by keyword: a row's values come in order")
        names: Sequence[str] = [f.name for f in fields]
    else:
        names = cast(Any, record)._fields  # a NamedTuple's
    return Shape(record, names, sql, decode)


def all_rows(sql: str, params: Sequence[Any] = (), postgres: str | None = None) -> Plan[list[Row]]:
    """A step: run one statement, its rows."""
    return (yield Query(sql, tuple(params), postgres=postgres))


def one_row(sql: str, params: Sequence[Any] = (), postgres: str | None = None) -> Plan[Row | None]:
    """A step: run one statement, its first row (None if none)."""
    rows = yield Query(sql, tuple(params), postgres=postgres)
    return rows[0] if rows else None


def each_row(sql: str, rows: Iterable[Sequence[Any]]) -> Plan[None]:
    """A step: run one statement once for each row of parameters."""
    yield Query(sql, [tuple(r) for r in rows], many=True)


def now() -> str:
    """The current UTC time as stored (ISO 8601, seconds)."""
    return datetime.now(UTC).isoformat(timespec="seconds")

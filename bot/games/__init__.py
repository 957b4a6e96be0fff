"""The service a Discord callback calls: load -> engine move -> save -> render.

Nothing here knows Discord: players are user ids and names, messages are ids. Every
accepted move is committed (with its move-log entry) before the caller answers the click;
each game's moves run one at a time under a per-game lock, and the store's version check
refuses a move computed from a state that another process changed in the meantime.

One module per topic (see ``GameService``); ``keeper`` keeps and saves the games, ``clock``
says when; ``seats`` numbers the seats; ``results`` holds what the service hands back.
The Discord side reaches the strategy's answers (``Choice``, ``BoxHint``, ``WinHint``),
the text scorecard (``card_text``, ``code_block``) and the dice emojis'
images (``die_emoji_png``) from here, never from
``bot.strategy`` or ``bot.render`` itself.
"""

from bot.render.emoji import die_emoji_png
from bot.render.text_card import card_text, code_block
from bot.store import (
    DailyEntry,
    DailyPlace,
    GameStatus,
    GuildSettings,
    StoreUnavailable,
    TokenRecord,
)
from bot.strategy.analyst import BoxHint
from bot.strategy.decisions import Choice
from bot.strategy.winning import WinHint

from .clock import IDLE_LIMIT, LOBBY_TIMEOUT, REPAIR_AFTER, TURN_LIMITS, stamp, utc_now
from .keeper import MAX_LIVE_GAMES
from .moves import BoardClick, TurnMove
from .requests import AnsweredElsewhere, begin
from .results import (
    ENDED_BY,
    EVERYONE_AWAY,
    GAME_GONE,
    GAME_OVER,
    LOBBY_CLOSED,
    NO_GAME_HERE,
    NO_ROOM,
    NOBODY_LEFT,
    NOT_FOR_DAILY,
    REMATCH_FOR_PLAYERS,
    REMATCH_NOT_YOURS,
    REPLAY_LATER,
    Board,
    Card,
    ComputerDue,
    Expired,
    GameView,
    Notified,
    Outcome,
    Pinged,
    Refusal,
    Rematch,
    Report,
    Scored,
    TimedOut,
    Undone,
    Where,
)
from .seats import BOT_NAMES, bot_level, is_bot, player_id, rematch_callers
from .service import GameService

__all__ = [
    "BOT_NAMES",
    "ENDED_BY",
    "EVERYONE_AWAY",
    "GAME_GONE",
    "GAME_OVER",
    "IDLE_LIMIT",
    "LOBBY_CLOSED",
    "LOBBY_TIMEOUT",
    "MAX_LIVE_GAMES",
    "NOBODY_LEFT",
    "NOT_FOR_DAILY",
    "NO_GAME_HERE",
    "NO_ROOM",
    "REMATCH_FOR_PLAYERS",
    "REMATCH_NOT_YOURS",
    "REPAIR_AFTER",
    "REPLAY_LATER",
    "TURN_LIMITS",
    "AnsweredElsewhere",
    "Board",
    "BoardClick",
    "BoxHint",
    "Card",
    "Choice",
    "ComputerDue",
    "DailyEntry",
    "DailyPlace",
    "Expired",
    "GameService",
    "GameStatus",
    "GameView",
    "GuildSettings",
    "Notified",
    "Outcome",
    "Pinged",
    "Refusal",
    "Rematch",
    "Report",
    "Scored",
    "StoreUnavailable",
    "TimedOut",
    "TokenRecord",
    "TurnMove",
    "Undone",
    "Where",
    "WinHint",
    "begin",
    "bot_level",
    "card_text",
    "code_block",
    "die_emoji_png",
    "is_bot",
    "player_id",
    "rematch_callers",
    "stamp",
    "utc_now",
]

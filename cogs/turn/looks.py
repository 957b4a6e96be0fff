"""The turn feature's builders that the shared parts show (``cogs.shared.looks.TurnLooks``),
registered when the feature loads."""

from .board import board_embed as board_embed
from .board import board_files as board_files
from .board import board_view as board_view
from .messages import ended_fields as ended_fields
from .messages import left_embed as left_embed
from .messages import moved_on_embed as moved_on_embed
from .messages import moved_to_embed as moved_to_embed
from .messages import summary_embed as summary_embed
from .messages import undo_view as undo_view
from .messages import waiting_embed as waiting_embed

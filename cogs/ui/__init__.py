"""What the cogs build and send, and no cog: the controls and their custom_ids
(``components``), the messages' embeds, files and views (``messages``, pure builders),
the posting, editing and repairing of a game's messages (``publisher``), and answering an
interaction in time (``answers``)."""

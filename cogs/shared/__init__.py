"""What every feature uses: answering in time, errors, languages, the dice emojis, the
pace of public posts, the slash commands' translations, the controls' base, the gate of
every click, and the publisher that posts, edits and repairs a game's messages."""

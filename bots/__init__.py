"""Reference bots, the policy interface they are written against, the bot SDK, and what they provide each game.

``bots/<game>/provides.py`` declares a game's reference bots (bots/provided.py);
``bots.provided.reference(game)`` reads them.
"""

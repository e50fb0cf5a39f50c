"""ガッチャ ~God Chance~ as a whole game: 4 rounds, action cards, raid bosses, quests, rate battle.

Card lists and tracks are data (:mod:`.data`, ``data/illustrative.toml``); the pure rules
are in :mod:`.rules`, the vectorized simulator in :mod:`.sim`, the plain-Python reference in
:mod:`.reference`, strategies in :mod:`.policies`. The bag is :mod:`gamesim.games.gacha`'s.
Importing this package registers the game ``"gacha_game"``.
"""

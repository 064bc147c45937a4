"""The pure half of the player's client: no terminal, no sockets, no threads.

Everything here is a function of immutable data (a player's view of the
game, the names at the table, what was typed) so that it can be tested
without a terminal: the command language and its completions
(``commands``, ``resolve``, ``complete``), why a move is refused
(``explain``), the game's map drawn in characters (``mapview``), what
the players did as typed facts (``happened``), the log of moves in words
(``phrases``), each player's last turn (``lastturn``), one player's network
and `map SEAT` (``network``), the panel's sections (``panel``), the routes
the hand pays for (``claimable``), pages that wrap at any width
(``pagetext``), the screen laid out as styled text at any size (``screen``),
``show``'s page (``overview``), the end-of-game breakdown (``endgame``),
`help` and `rules` said from the game's rules (``helptext``, ``examples``).
Every one of them reads the board and rules from the game its view carries
(``view.game``). ``cli/tui`` puts it
on a prompt_toolkit screen; ``cli/plain.py`` uses the same command
language for the plain line prompt.
"""

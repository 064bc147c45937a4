"""The rules of Ticket to Ride, every board we have: pure, deterministic, no I/O, no clock,
no randomness. Import from the modules (``board``, ``cards``, ``events``,
``state``, ``rules``, ``moves``, ``view``, ``outcome``, ...): this package
re-exports nothing.

State is data (``GameState``); ``apply(state, event)`` is the only way it
changes, and raises an ``EngineError`` (state untouched) for anything the
rules refuse. Events are player actions (``DrawBlind``, ``ClaimRoute``, ...)
and chance events (``Shuffled``, ``Remasked``, ``Mixed``, ``Reveal``, ``Peek``): the
engine never shuffles; when it needs chance it says so in ``state.awaiting``
(``NeedShuffle``, ``NeedRemask``, ``NeedMix``, ``NeedReveal``) and waits.

Cards are named by references ``CardRef(deck, epoch, pos)`` whose faces a
state may or may not know: ``state.public`` (seen by all) and
``state.private`` (seen by one player). ``view_for(state, p)`` is the one
secret filter; every function below works on a view, so the client and the
bots see exactly what a player at that seat would.

    game = load_game("usa", "1910")     # boards.py: a board, its rules, a variant
    state = new_game(game, 3)           # waits for the decks to be shuffled
    state = apply(state, Shuffled(...)) # chance, from a dealer or the deck protocol
    actors(state)                       # who must decide now
    legal_actions(view_for(state, p), p)
    final_score(state)                  # once state.over
"""

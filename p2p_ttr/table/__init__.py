"""The replicated game: the engine and the mental-poker deck glued into one pure
fold over an ordered, signed log of messages. No sockets here."""

"""p2p_ttr: Ticket to Ride: Europe on a LAN with no trusted server.

Layers (imports point down only): cli -> net -> table -> (deck, engine).
"""

__version__ = "0.1.0"

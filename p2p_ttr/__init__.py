"""p2p_ttr: Ticket to Ride (Europe, USA, India, Nordic Countries...) on a LAN with no trusted server.

The layers and the direction of imports are stated once, in the README
(Layout), and held by tests/test_layers.py.
"""

__version__ = "0.1.0"

"""The rules of Ticket to Ride: Europe: pure, deterministic, no I/O."""

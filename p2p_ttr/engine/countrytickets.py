"""Switzerland's country tickets: city-to-country and country-to-country.

A country is reached at any of its endpoints (the flags on the board's edge,
places of the board whose single route makes them dead ends: a path never
goes on through a country). A country ticket starts at its city, or at any
endpoint of its country, and lists destination countries with a value each;
at the end only the highest value completed scores, and a ticket with none
completed loses its lowest value (``scoring.ticket_outcomes``, which scores
every ticket so: an ordinary ticket is one destination). The cards come in
the data's ``country_tickets``, each ``copies`` times, after the city tickets
in the one ticket deck.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .board import Board, Ticket, TicketGoal, fold_name


def with_country_tickets(board: Board, data: dict[str, Any]) -> Board:
    """``board`` with the data's country tickets after its own (ids following on)."""
    zones: dict[str, list[str]] = {name: list(zone["endpoints"]) for name, zone in data.get("zones", {}).items()}
    tickets = list(board.tickets)
    for card in data.get("country_tickets", ()):
        starts = tuple(zones[card["from"]]) if card["from_kind"] == "country" else (card["from"],)
        if any(place not in board.routes_at for place in starts):
            raise ValueError(f"country ticket from {card['from']!r} starts at an unknown place")
        goals = tuple(TicketGoal(goal["country"], tuple(zones[goal["country"]]), int(goal["points"]))
                      for goal in card["to"])
        richest = max(goals, key=lambda g: g.points)
        title = f"{card['from']}-{'/'.join(g.name for g in goals)} ({'/'.join(str(g.points) for g in goals)})"
        for _ in range(int(card["copies"])):
            tickets.append(Ticket(len(tickets), starts[0], richest.places[0], richest.points, False,
                                  starts if len(starts) > 1 else (), goals, title))
    return replace(board, tickets=tuple(tickets))


def start_name(board: Board, ticket: Ticket) -> str:
    """Where a country ticket starts, as its card names it: its city, or its
    country (the country whose endpoints are the ticket's starts)."""
    if len(ticket.origin) == 1:
        return ticket.origin[0]
    # The same endpoints, in whatever order each ticket lists them (nearest first).
    return next((g.name for t in board.tickets for g in t.goals if set(g.places) == set(ticket.origin)),
                ticket.origin[0])


def country_tickets_from(board: Board, name: str) -> tuple[int, ...] | None:
    """The ids of the country tickets (every copy) that start at the city or
    country called ``name`` (ignoring case, spaces and accents); None where
    the board has no country ticket starting there."""
    key = fold_name(name)
    found = tuple(t.id for t in board.tickets if t.goals and fold_name(start_name(board, t)) == key)
    return found or None

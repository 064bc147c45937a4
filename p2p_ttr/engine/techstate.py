"""The United Kingdom's technologies as plain data: their names, and the
slice of a game's state that says who holds which (``technologies.py``
owns the rules that read and change it).

Every technology a player holds is public, as the cards lie face up in
front of them at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

WALES = "Wales Concession"
IRELAND_FRANCE = "Ireland/France Concession"
SCOTLAND = "Scotland Concession"
MECHANICAL_STOKER = "Mechanical Stoker"
SUPERHEATED_BOILER = "Superheated Steam Boiler"
PROPELLERS = "Propellers"
BOOSTER = "Booster"
BOILER_LAGGING = "Boiler Lagging"
STEAM_TURBINES = "Steam Turbines"
DOUBLE_HEADING = "Double Heading"
RIGHT_OF_WAY = "Right of Way"
THERMOCOMPRESSOR = "Thermocompressor"
WATER_TENDERS = "Water Tenders"
RISKY_CONTRACTS = "Risky Contracts"
EQUALISING_BEAM = "Equalising Beam"
DIESEL_POWER = "Diesel Power"

REGULAR_TECHNOLOGIES = (WALES, IRELAND_FRANCE, SCOTLAND, MECHANICAL_STOKER, SUPERHEATED_BOILER, PROPELLERS,
                        BOOSTER, BOILER_LAGGING, STEAM_TURBINES, DOUBLE_HEADING, RIGHT_OF_WAY)
ADVANCED_TECHNOLOGIES = (THERMOCOMPRESSOR, WATER_TENDERS, RISKY_CONTRACTS, EQUALISING_BEAM, DIESEL_POWER)
EVERY_TECHNOLOGY = REGULAR_TECHNOLOGIES + ADVANCED_TECHNOLOGIES
LONGEST_TECHNOLOGY_NAME = max(len(name) for name in EVERY_TECHNOLOGY)


@dataclass(frozen=True, slots=True)
class TechnologyHoldings:
    """Who holds which technology, and what the turn's purchase allows."""

    held: tuple[tuple[str, ...], ...]  # each player's technologies, in the order bought
    earned: tuple[int, ...]  # each player's points scored as routes were laid (Boiler Lagging, Steam Turbines)
    bought_turn: int = -1  # GameState.turn of the latest purchase: one a turn
    # Right of Way bought this turn and not yet used: it serves one claim, then goes back to the table.
    right_of_way: bool = False
    # Thermocompressor bought this turn: its first claim leaves the turn open for a second
    # (``second_claim``), then it goes back to the table.
    thermocompressor: bool = False
    second_claim: bool = False

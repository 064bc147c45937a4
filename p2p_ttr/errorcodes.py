"""Every code a refusal or a finding carries: one enum, read by code and
written on the wire and in `ttr verify --json` as its string value.

Engine and table refusals are answered to their author with the code
(protocol.md §7); `ttr verify` names each finding with one. A leaf module:
every layer may use it, it uses none.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    # The engine refused an event (protocol.md §2).
    """A refusal's or a finding's code; its value is the string on the wire and in JSON."""

    ENGINE_ERROR = "engine_error"
    MALFORMED = "malformed"
    OUT_OF_TURN = "out_of_turn"
    ILLEGAL_MOVE = "illegal_move"
    UNKNOWN_CARD = "unknown_card"
    BAD_CHANCE = "bad_chance"
    # The table refused an entry (protocol.md §6, §7).
    REJECTED = "rejected"
    BAD_SIGNATURE = "bad_signature"
    WRONG_GAME = "wrong_game"
    REPLAY = "replay"
    UNKNOWN_HEAD = "unknown_head"
    NOT_EXPECTED = "not_expected"
    BAD_PROOF = "bad_proof"
    CHEATING = "cheating"
    # What `ttr verify` finds in a whole log (beyond a refused entry).
    INCOMPLETE = "incomplete"
    HALTED = "halted"
    HALTED_WITHOUT_CAUSE = "halted_without_cause"
    WITHHELD_AUDIT = "withheld_audit"
    DECK_AUDIT = "deck_audit"
    OTHER_RULES = "other_rules"
    # With the host's receipts beside the log (protocol.md §9): the host
    # signed, at that index, an entry written on another log.
    HOST_SEQUENCED_INVALID = "host_sequenced_invalid"
    # The lobby refused a hello (protocol.md §9).
    VERSION = "version"
    BAD_HELLO = "bad_hello"
    RELAYED = "relayed"  # the hello was dialled to another address than the host's: a relay in between
    BAD_NAME = "bad_name"
    NAME_TAKEN = "name_taken"
    FULL = "full"
    STARTED = "started"

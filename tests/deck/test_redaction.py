"""Objects holding a secret exponent or a seed never show it in repr or str."""

from __future__ import annotations

from typing import Any

from p2p_ttr.deck import SecretKey, SecretReveal, Seed
from p2p_ttr.deck.drbg import Drbg


def _forms_of_x(x: int) -> list[str]:
    raw = x.to_bytes(32, "big")
    return [str(x), hex(x), f"{x:x}", f"{x:X}", repr(raw), raw.hex(), str(list(raw))[1:-1]]


def _forms_of_seed(seed: bytes) -> list[str]:
    return [repr(seed), seed.hex(), seed.hex().upper(), str(list(seed))[1:-1]]


def _shown(obj: Any) -> str:
    return repr(obj) + str(obj) + format(obj) + repr([obj]) + repr({"k": obj})


def test_secret_key_is_redacted(game_of) -> None:
    secret = game_of(2).secrets[0]
    shown = _shown(secret)
    assert "<redacted>" in shown and "seat=0" in shown
    for form in _forms_of_x(secret.x):
        assert form not in shown


def test_seed_is_redacted() -> None:
    value = bytes(range(100, 132))
    shown = _shown(Seed(value))
    assert shown.count("<redacted>") >= 2
    for form in _forms_of_seed(value):
        assert form not in shown


def test_secret_reveal_is_redacted(game_of) -> None:
    game = game_of(2)
    reveal = SecretReveal.of(game.secrets[1], game.seeds[1])
    shown = _shown(reveal)
    for form in _forms_of_x(game.secrets[1].x) + _forms_of_seed(game.seeds[1].value):
        assert form not in shown


def test_generators_keyed_by_secrets_are_redacted() -> None:
    secret = bytes(range(32))
    drbg = Drbg(secret, b"domain")
    stream = drbg.stream("permutation")
    stream.bits(7)  # holds pooled secret-derived bits now
    for obj in (drbg, stream):
        shown = _shown(obj)
        assert "<redacted>" in shown
        for form in _forms_of_seed(secret):
            assert form not in shown


def test_a_secret_inside_a_container_record_stays_hidden(game_of) -> None:
    game = game_of(2)
    key = SecretKey.from_wire(game.secrets[0].to_wire())
    assert "<redacted>" in repr((key, game.seeds[0]))

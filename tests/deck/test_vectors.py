"""The test vectors of protocol.md §3 are what the code makes, and what
protocol.md quotes of them is in them. (tests/outsider/ recomputes every
value from scratch with a checker written from protocol.md alone.)"""

from __future__ import annotations

import json
from pathlib import Path

from deck_vectors import VECTOR, vector_case

PROTOCOL = (Path(__file__).parents[2] / "protocol.md").read_text()


def test_the_code_makes_the_vectors() -> None:
    assert vector_case() == json.loads(VECTOR.read_text())


def test_what_protocol_md_quotes_is_in_the_vectors() -> None:
    vectors = json.loads(VECTOR.read_text())
    step = vectors["chains"][0]["steps"][0]
    derivation = step["derivation"]
    assert (vectors["chains"][0]["deck"], step["seat"]) == ("train", 0)
    key, block, r0 = derivation["drbg_key"], derivation["permutation_blocks"][0], derivation["r"][0]
    assert f"K = `{key[:8]}…{key[-8:]}`" in PROTOCOL and f"B_0 ends in `…{block[-2:]}`" in PROTOCOL
    assert derivation["permutation"] == [2, 0, 1] and "[2, 0, 1]" in PROTOCOL
    assert f"r_0 = `{r0[:10]}…{r0[-8:]}`" in PROTOCOL
    assert f"I = `{derivation['input_digest'][:16]}…`" in PROTOCOL
    assert f"h0 = `{vectors['log_genesis_head']}`" in PROTOCOL
    spaced = vectors["field_encoding"]["encoded"]
    assert spaced == "".join(
        "42 00000007 7032705f747472 53 00000005 747261696e 49 00000000 49 00000002 012c".split())
    assert "42 00000007 7032705f747472 53 00000005 747261696e 49 00000000 49 00000002 012c" in PROTOCOL
    card = "42 00000014 7032705f7474722f6465636b2f76312f63617264 53 00000005 747261696e 49 00000001 32 49 00000000"
    assert vectors["card_hash_input"] == "".join(card.split()) and card in PROTOCOL

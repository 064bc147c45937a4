"""The name a player gets at the table when they give none: their login
name, capitalised as a name is written ("root" -> "Root"), for the host
and a joiner alike; a joiner whose default is taken at the table gets a
distinct one (net/lobby.py, ``another_name``)."""

from __future__ import annotations

import getpass

from p2p_ttr.table.messages import valid_name

FALLBACK = "Player"


def login_name() -> str:
    """The login name, capitalised, cut to 24 characters (``Player`` if there is none usable)."""
    try:
        login = getpass.getuser()
    except Exception:  # no login name at all (getpass says which errors it may raise only by platform)
        return FALLBACK
    name = capitalised(login)[:24]
    return name if valid_name(name) else FALLBACK


def capitalised(login: str) -> str:
    """``root`` -> ``Root``; a name already written with capitals stays as it is (``McKay``, ``ANN``)."""
    return login[:1].upper() + login[1:] if login[:1].islower() and login[1:] == login[1:].lower() else login

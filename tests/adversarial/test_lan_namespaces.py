"""A real LAN shape: the host and the joiners each in a network namespace of
their own, with their own address on one bridged subnet, play a bot game
with `ttr host` / `ttr join <address>`. One joiner by default (CI time);
``TTR_LAN_JOINERS=N`` (1..4) seats more.

The test makes every namespace itself, inside a user namespace (`unshare
-rnm`, no privileges needed where the kernel allows it): nothing leaves the
namespaces it created. Where the runner may not create them, the test is
skipped with the reason."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from test_net_lan import Run, check_game, command

ROOT = Path(__file__).resolve().parents[2]
SUBNET = "10.77.0"  # inside the namespaces this test creates, nowhere else
JOINERS = min(4, max(1, int(os.environ.get("TTR_LAN_JOINERS", "1"))))
PEERS = {"host": 1, **{f"J{i}": 1 + i for i in range(1, JOINERS + 1)}}
UNSHARE = ["unshare", "--user", "--map-root-user", "--net", "--mount", "--fork"]
SETUP_FAILED = 77


def can_make_namespaces() -> str | None:
    """None if this runner may make the namespaces; else why not."""
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not installed"
    probe = subprocess.run([*UNSHARE, "true"], capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        return f"cannot create a user and network namespace here: {probe.stderr.strip() or probe.returncode}"
    return None


def script(tmp: Path, port: int) -> str:
    env = f"env PYTHONPATH={shlex.quote(str(ROOT))} PYTHONUNBUFFERED=1"
    common = ["--as-bot", "--json", "--timeout", "60"]
    lines = [
        "fail() { echo \"$1\" >&2; exit %d; }" % SETUP_FAILED,
        "mount -t tmpfs none /run || fail 'cannot mount /run in the new mount namespace'",
        "mkdir -p /run/netns",
        "ip link add br0 type bridge && ip link set br0 up || fail 'cannot create a bridge'",
    ]
    for label, host_part in PEERS.items():
        ns = f"ttr{label}"
        lines += [
            f"ip netns add {ns} || fail 'cannot create a network namespace'",
            f"ip link add v{label} type veth peer name eth0 netns {ns} || fail 'cannot create a veth pair'",
            f"ip link set v{label} master br0 && ip link set v{label} up || fail 'cannot attach to the bridge'",
            f"ip -n {ns} addr add {SUBNET}.{host_part}/24 dev eth0 && ip -n {ns} link set eth0 up "
            f"&& ip -n {ns} link set lo up || fail 'cannot configure {ns}'",
        ]
    for label in PEERS:
        if label == "host":
            args = command("host") + ["--bind", f"{SUBNET}.1", "--port", str(port), "--players", str(len(PEERS)),
                                      "--name", "host"]
        else:
            args = command("join") + [f"{SUBNET}.1:{port}", "--name", label]
        args += [*common, "--data-dir", str(tmp / label)]
        out, err = tmp / f"{label}.1.out", tmp / f"{label}.1.err"
        lines.append(f"timeout 150 ip netns exec ttr{label} {env} {shlex.join(args)} "
                     f"> {shlex.quote(str(out))} 2> {shlex.quote(str(err))} &")
        lines.append(f"pid_{label}=$!")
        if label == "host":
            lines.append("sleep 0.5")
    lines.append("code=0")
    for label in PEERS:
        lines.append(f"wait $pid_{label} || code=$?")
    lines.append("exit $code")
    return "\n".join(lines) + "\n"


def test_host_and_joiners_in_their_own_namespaces_play_a_game(tmp_path: Path) -> None:
    why_not = can_make_namespaces()
    if why_not:
        pytest.skip(why_not)
    port = 7311  # each namespace has its own ports: the default one is free
    path = tmp_path / "lan.sh"
    path.write_text(script(tmp_path, port))
    started = time.monotonic()
    done = subprocess.run([*UNSHARE, "bash", str(path)], capture_output=True, text=True, timeout=200)
    if done.returncode == SETUP_FAILED:
        pytest.skip(f"cannot build the namespaces here: {done.stderr.strip()}")
    run = Run(tmp_path)
    run.runs = {label: 1 for label in PEERS}
    assert done.returncode == 0, done.stderr + "".join(run.errors(label)[-1500:] for label in PEERS)
    summaries = check_game(run, list(PEERS))  # the same game everywhere; every log verifies
    names = [p["name"] for p in summaries[0]["players"]]
    assert names[0] == "host" and sorted(names) == sorted(PEERS)
    for label in PEERS:
        if label == "host":
            continue
        assert "the game starts: you are seat" in run.errors(label)
    assert time.monotonic() - started < 200

"""LAN play: ZeroMQ transport, the host's sequencer and relay, the peer side,
persistence and liveness. Sockets and files live here and in p2p_ttr.cli only; the
table stays a pure fold."""

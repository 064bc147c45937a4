"""One module per `ttr` subcommand; each exposes COMMAND (see p2p_ttr.cli.registry)."""

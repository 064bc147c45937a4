"""One module per `ttr` subcommand; each exposes COMMAND (see cli.registry)."""

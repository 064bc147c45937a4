"""The `ttr` command and the terminal client."""

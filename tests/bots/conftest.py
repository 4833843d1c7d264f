"""The bots here are programs that the tests start, not modules to collect."""

collect_ignore_glob = ["*.py"]

"""Adapters to other frameworks, each behind an optional extra (`pip install
'outline-splitter[<name>]'`); the core never imports them."""

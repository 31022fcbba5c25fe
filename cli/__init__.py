"""toolchoice's command line (Typer). Commands live one per module; ``app`` wires them."""

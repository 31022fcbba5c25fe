"""The path every provider shares, one direction: scenario → choice → plan → request + ledger →
transport → reply → verdict, with the runner that drives it. Nothing here names a provider; what a
provider needs lives in its own module beside this package."""

"""`python -m toolchoice.cli ...`: the same command as the `toolchoice` console script, for callers
that have an interpreter but not the script on PATH (tests run from `python -m pytest`)."""

from .app import main

if __name__ == "__main__":
    main()

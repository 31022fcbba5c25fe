"""`python -m toolchoice ...`: the same command as the `toolchoice` console script."""

from toolchoice.cli.app import main

if __name__ == "__main__":
    main()

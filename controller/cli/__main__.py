"""`python -m controller.cli` runs the `pipesctl` command."""

from controller.cli import main

main()

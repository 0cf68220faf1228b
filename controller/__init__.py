"""pipesctl: run pipes rotation-puzzle rooms inside a live Minecraft server over RCON."""

__version__ = "0.1.0"

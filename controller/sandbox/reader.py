"""The sandbox's command reader: the Brigadier-style reader of ``controller.nbt.reader``."""

from controller.nbt.reader import (
    CommandSyntaxError,
    StringReader,
    is_allowed_in_unquoted_string,
    parse_context,
)

__all__ = ["CommandSyntaxError", "StringReader", "is_allowed_in_unquoted_string", "parse_context"]

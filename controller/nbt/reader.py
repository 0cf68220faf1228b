"""A Brigadier-style string reader and the syntax error that carries a cursor.

Mirrors com.mojang.brigadier.StringReader closely enough that error cursors (and so the
``...<10 chars><--[HERE]`` context of vanilla's parse errors) land where vanilla puts them.
SNBT and NBT paths are read from it, and so are the sandbox's commands.
"""

from __future__ import annotations

__all__ = [
    "JAVA_WHITESPACE",
    "CommandSyntaxError",
    "StringReader",
    "is_allowed_in_unquoted_string",
    "parse_context",
]

_CONTEXT_AMOUNT = 10  # CommandSyntaxException.CONTEXT_AMOUNT

# java.lang.Character.isWhitespace: Zs/Zl/Zp except the no-break spaces, plus 9-13 and 28-31.
JAVA_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2008\u2009\u200a\u2028\u2029\u205f\u3000"
)


class CommandSyntaxError(Exception):
    """A Brigadier CommandSyntaxException: a raw message and, for parse errors, a cursor."""

    def __init__(self, message: str, command: str | None = None, cursor: int = -1) -> None:
        super().__init__(message)
        self.message = message
        self.command = command
        self.cursor = cursor

    def context(self) -> str | None:
        """The ``...input<--[HERE]`` context vanilla prints after a parse error, if any."""
        if self.command is None or self.cursor < 0:
            return None
        return parse_context(self.command, self.cursor)


def parse_context(command: str, cursor: int) -> str:
    """Vanilla's Commands.finishParsing context string for a cursor position."""
    cursor = min(cursor, len(command))
    text = ""
    if cursor > _CONTEXT_AMOUNT:
        text += "..."
    text += command[max(0, cursor - _CONTEXT_AMOUNT) : cursor]
    if cursor < len(command):
        text += command[cursor:]
    return text + "<--[HERE]"


def _is_allowed_number(c: str) -> bool:
    return "0" <= c <= "9" or c in ".-"


def is_allowed_in_unquoted_string(c: str) -> bool:
    """Brigadier's unquoted string alphabet: 0-9 A-Z a-z _ - . +"""
    return "0" <= c <= "9" or "A" <= c <= "Z" or "a" <= c <= "z" or c in "_-.+"


class StringReader:
    """A cursor over a command string, with Brigadier's reading primitives."""

    def __init__(self, string: str, cursor: int = 0) -> None:
        self.string = string
        self.cursor = cursor

    # -- inspection -----------------------------------------------------------------------
    def can_read(self, length: int = 1) -> bool:
        """Whether at least `length` more characters remain."""
        return self.cursor + length <= len(self.string)

    def peek(self, offset: int = 0) -> str:
        """The character at cursor + offset (no bounds check beyond Python's)."""
        return self.string[self.cursor + offset]

    @property
    def remaining(self) -> str:
        """Everything after the cursor."""
        return self.string[self.cursor :]

    def read(self) -> str:
        """Consume and return one character."""
        c = self.string[self.cursor]
        self.cursor += 1
        return c

    def skip(self) -> None:
        """Consume one character."""
        self.cursor += 1

    def skip_whitespace(self) -> None:
        """Consume spaces (Brigadier: Character.isWhitespace)."""
        while self.can_read() and self.peek().isspace():
            self.cursor += 1

    def error(self, message: str, cursor: int | None = None) -> CommandSyntaxError:
        """A syntax error at the cursor (or at `cursor`)."""
        return CommandSyntaxError(message, self.string, self.cursor if cursor is None else cursor)

    # -- primitives -----------------------------------------------------------------------
    def read_int(self) -> int:
        """Brigadier readInt: 'Expected integer' / 'Invalid integer ...'."""
        start = self.cursor
        while self.can_read() and _is_allowed_number(self.peek()):
            self.skip()
        number = self.string[start : self.cursor]
        if not number:
            raise self.error("Expected integer")
        try:
            return int(number)
        except ValueError:
            self.cursor = start
            raise self.error(f"Invalid integer '{number}'") from None

    def read_float(self) -> float:
        """Brigadier readDouble/readFloat: 'Expected double' / 'Invalid double ...'."""
        start = self.cursor
        while self.can_read() and _is_allowed_number(self.peek()):
            self.skip()
        number = self.string[start : self.cursor]
        if not number:
            raise self.error("Expected double")
        try:
            return float(number)
        except ValueError:
            self.cursor = start
            raise self.error(f"Invalid double '{number}'") from None

    def read_unquoted_string(self) -> str:
        """Read [0-9A-Za-z_.+-]*."""
        start = self.cursor
        while self.can_read() and is_allowed_in_unquoted_string(self.peek()):
            self.skip()
        return self.string[start : self.cursor]

    def read_quoted_string(self) -> str:
        """Read a '…' or "…" string with backslash escapes."""
        if not self.can_read():
            return ""
        quote = self.peek()
        if quote not in "\"'":
            raise self.error("Expected quote to start a string")
        self.skip()
        return self.read_string_until(quote)

    def read_string_until(self, terminator: str) -> str:
        """Read up to an unescaped terminator, consuming it."""
        out: list[str] = []
        escaped = False
        while self.can_read():
            c = self.read()
            if escaped:
                if c == terminator or c == "\\":
                    out.append(c)
                    escaped = False
                else:
                    self.cursor -= 1
                    raise self.error(f"Invalid escape sequence '\\{c}' in quoted string")
            elif c == "\\":
                escaped = True
            elif c == terminator:
                return "".join(out)
            else:
                out.append(c)
        raise self.error("Unclosed quoted string")

    def read_string(self) -> str:
        """A quoted or unquoted string."""
        if not self.can_read():
            return ""
        if self.peek() in "\"'":
            return self.read_quoted_string()
        return self.read_unquoted_string()

    def expect(self, c: str) -> None:
        """Consume `c` or fail with "Expected 'c'"."""
        if not self.can_read() or self.peek() != c:
            raise self.error(f"Expected '{c}'")
        self.skip()

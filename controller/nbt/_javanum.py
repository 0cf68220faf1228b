"""Java number semantics: float32 rounding, Float/Double.parseX and String.valueOf (JDK 19+)."""

from __future__ import annotations

import functools
import math
import struct
from fractions import Fraction

__all__ = [
    "f32_from_fraction",
    "java_double_str",
    "java_float_str",
    "parse_java_double",
    "parse_java_float",
    "shortest_exact",
    "to_float32",
]

_F32_MAX_ROUNDING_EDGE = Fraction(2**128 - 2**103)  # values >= this round to infinity


def to_float32(value: float) -> float:
    """Round a double to the nearest float32 (ties to even), returned as a Python float."""
    try:
        result: float = struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)
    return result


def f32_from_fraction(value: Fraction) -> float:
    """Correctly round an exact rational to float32 (round half to even), like Float.parseFloat."""
    if value == 0:
        return 0.0
    sign = -1.0 if value < 0 else 1.0
    mag = abs(value)
    if mag >= _F32_MAX_ROUNDING_EDGE:
        return sign * math.inf
    # exponent e with 2**e <= mag < 2**(e+1)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    e = max(e, -126)  # subnormals share the smallest exponent
    scale = Fraction(2) ** (e - 23)  # one unit in the last place
    q, r = divmod(mag, scale)
    q = int(q)
    half = scale / 2
    if r > half or (r == half and q % 2 == 1):
        q += 1
    return sign * math.ldexp(float(q), e - 23)


def parse_java_double(text: str) -> float:
    """Double.parseDouble for a plain decimal string (correctly rounded; inf on overflow)."""
    return float(text)


def parse_java_float(text: str) -> float:
    """Float.parseFloat for a plain decimal string: one correct rounding straight to float32."""
    approx = float(text)
    if approx == 0.0 or math.isinf(approx):
        # |x| < 2**-1075 is far below float32's smallest subnormal; inf stays inf
        return to_float32(approx) if approx == 0.0 else approx
    return f32_from_fraction(Fraction(text))


def _digits_exp(dec: Fraction) -> tuple[str, int]:
    """Digits (no trailing zeros) and decimal exponent of a positive terminating decimal."""
    num, den = dec.numerator, dec.denominator
    shift = 0
    while den != 1:  # den divides a power of ten
        num *= 10
        shift += 1
        g = math.gcd(num, den)
        num //= g
        den //= g
    digits = str(num)
    exp = len(digits) - 1 - shift
    return digits.rstrip("0") or "0", exp


def _pick(cands: list[Fraction], exact: Fraction) -> Fraction:
    """The candidate closest to the exact value; ties go to an even last digit."""

    def key(c: Fraction) -> tuple[Fraction, int]:
        digits, _ = _digits_exp(c)
        return (abs(c - exact), int(digits[-1]) % 2)

    return min(cands, key=key)


def shortest_exact(value: float, single: bool) -> tuple[str, int]:
    """Java's (Raffaello Giulietti) shortest decimal for a positive finite value, exactly."""
    exact = Fraction(value)

    def rounds_back(c: Fraction) -> bool:
        if single:
            return f32_from_fraction(c) == value
        try:
            return float(c) == value
        except OverflowError:  # rounds to infinity
            return False

    e10 = math.floor(math.log10(value))
    while Fraction(10) ** e10 > exact:
        e10 -= 1
    while Fraction(10) ** (e10 + 1) <= exact:
        e10 += 1

    def neighbours(p: int) -> list[Fraction]:
        scale = Fraction(10) ** (e10 - p + 1)
        lo = (exact // scale) * scale
        out = [lo] if lo > 0 else []
        if lo != exact:
            out.append(lo + scale)
        return [c for c in out if rounds_back(c)]

    for p in range(1, 20):
        cands = neighbours(p)
        if cands:
            if p == 1:  # JDK 19+: a 2-digit decimal may win when the shortest has 1 digit
                cands += neighbours(2)
            return _digits_exp(_pick(cands, exact))
    raise AssertionError("unreachable: 17 digits always round-trip")  # pragma: no cover


def _shortest_double(value: float) -> tuple[str, int]:
    """Shortest digits of a positive double: Python's repr, exact rule for 1 digit."""
    text = repr(value)
    mantissa, _, exp_text = text.partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    exp = int(exp_text) if exp_text else 0
    raw = (int_part + frac_part).lstrip("0")
    lead_zeros = len(int_part + frac_part) - len((int_part + frac_part).lstrip("0"))
    digits = raw.rstrip("0")
    decimal_exp = len(int_part) - 1 - lead_zeros + exp
    if len(digits) >= 2:
        return digits, decimal_exp
    return shortest_exact(value, single=False)


def _format(value: float, digits: str, exp: int) -> str:
    """Java's layout: plain for 1e-3 <= |x| < 1e7, else computerized scientific."""
    sign = "-" if value < 0 else ""
    if -3 <= exp < 7:
        if exp >= 0:
            whole = digits[: exp + 1].ljust(exp + 1, "0")
            frac = digits[exp + 1 :] or "0"
        else:
            whole = "0"
            frac = "0" * (-exp - 1) + digits
        return f"{sign}{whole}.{frac}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exp}"


def _special(value: float) -> str | None:
    """Text for NaN, infinities and zeros, else None."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0.0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    return None


def java_double_str(value: float) -> str:
    """Java's Double.toString / String.valueOf(double) (JDK 19+ shortest-decimal rules)."""
    return _double_str_bits(struct.unpack("<Q", struct.pack("<d", value))[0])


@functools.lru_cache(maxsize=8192)
def _double_str_bits(bits: int) -> str:
    """Cached Double.toString keyed by the bit pattern (keeps -0.0 apart)."""
    value: float = struct.unpack("<d", struct.pack("<Q", bits))[0]
    special = _special(value)
    if special is not None:
        return special
    digits, exp = _shortest_double(abs(value))
    return _format(value, digits, exp)


def java_float_str(value: float) -> str:
    """Java's Float.toString of `value` rounded to float32 (JDK 19+ shortest-decimal rules)."""
    return _float_str_bits(struct.unpack("<I", struct.pack("<f", to_float32(value)))[0])


@functools.lru_cache(maxsize=8192)
def _float_str_bits(bits: int) -> str:
    """Cached Float.toString keyed by the bit pattern (keeps -0.0 apart)."""
    value: float = struct.unpack("<f", struct.pack("<I", bits))[0]
    special = _special(value)
    if special is not None:
        return special
    digits, exp = shortest_exact(abs(value), single=True)
    return _format(value, digits, exp)

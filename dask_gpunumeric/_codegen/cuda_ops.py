"""cuda_op_table: the C++ expression of each canonical NumPy ufunc, per loop kind.

One row per canonical ufunc name of ``_ir/ufunc_table.py`` (tests check every row is here
or in ``UNFUSIBLE``). A row maps NumPy kind letters (``b`` bool, ``i`` signed, ``u``
unsigned, ``f`` float, ``c`` complex) of the loop's first operand to a C++ expression
template; two-output ufuncs have one template per output. Placeholders: ``{0}``, ``{1}``
operands; ``{T}`` the operand's C++ type, ``{U}`` the unsigned type integer arithmetic
wraps in, ``{W}`` the operand's bit width, ``{D2T}`` the
cast of a ``double`` to the result type as x86-64 does it, ``{R}`` the result's C++ type.

Where C++ and NumPy differ, the template says what NumPy does (helpers in
``cuda_helpers.py``): ``True + True`` is ``True``; integer ``+ - *`` wrap (signed overflow
is undefined in C++); ``maximum`` propagates NaN and ``fmax`` ignores it; ``//`` and ``%``
take Python's signs and give 0 for a zero divisor; shifts by the width or more give 0 (or
-1); complex ``/`` is NumPy's Smith division and complex ``*`` NumPy's FMA form.

Differences from NumPy (what a kernel computes where NumPy's answer is not available):
- integer ``power`` with a negative exponent: NumPy raises ValueError; the kernel gives
  ``1 / a**b`` truncated toward zero (1 for a == 1, +-1 for a == -1, else 0).
- float to integer casts out of range or NaN: the x86-64 values NumPy gives on the
  machines here (C++ leaves them undefined, CUDA would saturate); on another CPU
  architecture NumPy itself may differ.
- complex transcendental functions are thrust's (as CuPy's are): within a few ulp of
  NumPy on finite inputs, but NaN and infinite inputs may give other NaN/inf patterns
  than NumPy's C99 functions. Complex ``exp2 expm1 log2 log1p power`` are not fused.
- float16 and datetimes have no kernel type: not fused (``isnat`` never).
- transcendental results follow CUDA's libdevice (its documented ulp bounds), not NumPy's
  SIMD approximations: equal within a few ulp, not bit for bit.
"""

from __future__ import annotations

from collections.abc import Mapping

# Ufuncs with no kernel expression at all, and why.
UNFUSIBLE: Mapping[str, str] = {
    "isnat": "datetime64/timedelta64 only: no datetime dtypes in fused kernels",
}

# Loops NumPy defines that the generator leaves to NumPy/CuPy's own ufuncs, and why.
UNFUSIBLE_LOOPS: Mapping[tuple[str, str], str] = {
    ("exp2", "c"): "thrust has no complex exp2: within 1 ulp of NumPy not guaranteed",
    ("expm1", "c"): "thrust has no complex expm1 (exp(z) - 1 loses NumPy's accuracy)",
    ("log2", "c"): "thrust has no complex log2: within 1 ulp of NumPy not guaranteed",
    ("log1p", "c"): "thrust has no complex log1p (log(1 + z) loses NumPy's accuracy)",
    ("power", "c"): "NumPy's cpow special-cases small integer exponents; thrust's does not",
    ("float_power", "c"): "NumPy's cpow special-cases small integer exponents",
}

_WRAP = "(({T})(({U}){0} {op} ({U}){1}))"
_FLOAT_COMPARE = "({0} {op} {1})"
_COMPLEX_TRUTH = "({0}.real() != 0 || {0}.imag() != 0)"


def _arithmetic(op: str, bool_op: str | None) -> dict[str, str]:
    row = {"iu": _WRAP.replace("{op}", op), "f": f"({{0}} {op} {{1}})", "c": f"({{0}} {op} {{1}})"}
    if bool_op is not None:
        row["b"] = f"({{0}} {bool_op} {{1}})"
    return row


def _comparison(op: str, complex_form: str) -> dict[str, str]:
    return {"biuf": _FLOAT_COMPARE.replace("{op}", op), "c": complex_form}


def _logical(op: str) -> dict[str, str]:
    truth = {"biuf": "({0} != 0)", "c": _COMPLEX_TRUTH}
    return {kind: f"({t} {op} {t.replace('{0}', '{1}')})" for kind, t in truth.items()}


def _both(predicate: str, op: str) -> str:
    return f"({predicate}({{0}}.real()) {op} {predicate}({{0}}.imag()))"


def _unary_math(name: str, complex_too: bool = True) -> dict[str, str]:
    row = {"f": f"{name}({{0}})"}
    if complex_too:
        row["c"] = f"{name}({{0}})"
    return row


def _extremum(greater: str, nan_of: str) -> dict[str, str]:
    """``maximum``-like rows: ``{0}`` when it wins (ties go to ``{1}`` as in NumPy's SIMD
    loops) or when ``nan_of`` is NaN."""
    return {
        "biu": f"(({{0}} {greater} {{1}}) ? {{0}} : {{1}})",
        "f": f"((({{0}} {greater} {{1}}) || isnan({nan_of})) ? {{0}} : {{1}})",
        "c": f"(({_complex_wins[greater]} || gn_complex_isnan({nan_of})) ? {{0}} : {{1}})",
    }


# Complex ties go to the first operand (CGE/CLE in NumPy's loops), real ones to the second.
_complex_wins = {
    ">": "gn_complex_less_equal({1}, {0})",
    "<": "gn_complex_less_equal({0}, {1})",
}


# npy_rad2deg: the constant is rounded in the loop's type ((float)180 / (float)pi).
_PI = "({R})3.141592653589793238462643383279502884"
_TO_DEGREES = f"({{0}} * (({{R}})180 / {_PI}))"
_TO_RADIANS = f"({{0}} * ({_PI} / ({{R}})180))"
_DIVIDE_ROW = {"f": "({0} / {1})", "c": "gn_complex_divide({0}, {1})"}

cuda_op_table: Mapping[str, Mapping[str, str | tuple[str, ...]]] = {
    # arithmetic
    "add": _arithmetic("+", "||"),
    "subtract": _arithmetic("-", None),
    "multiply": {**_arithmetic("*", "&&"), "c": "gn_complex_multiply({0}, {1})"},
    "divide": _DIVIDE_ROW,
    "floor_divide": {"iu": "gn_floor_divide_int({0}, {1})", "f": "gn_floor_divide_float({0}, {1})"},
    "remainder": {"iu": "gn_remainder_int({0}, {1})", "f": "gn_remainder_float({0}, {1})"},
    "fmod": {"iu": "gn_fmod_int({0}, {1})", "f": "fmod({0}, {1})"},
    "divmod": {
        "iu": ("gn_floor_divide_int({0}, {1})", "gn_remainder_int({0}, {1})"),
        "f": ("gn_floor_divide_float({0}, {1})", "gn_remainder_float({0}, {1})"),
    },
    "power": {"iu": "gn_power_int<{T}, {U}>({0}, {1})", "f": "pow({0}, {1})"},
    "float_power": {"f": "pow({0}, {1})"},
    "negative": {"iu": "(({T})(({U})0 - ({U}){0}))", "fc": "(-{0})"},
    "positive": {"iufc": "{0}"},
    "absolute": {
        "b": "{0}",
        "i": "(({T})({0} < 0 ? ({U})0 - ({U}){0} : ({U}){0}))",
        "u": "{0}",
        "f": "fabs({0})",
        "c": "hypot({0}.real(), {0}.imag())",
    },
    "fabs": {"f": "fabs({0})"},
    "reciprocal": {
        "iu": "{D2T}(1.0 / (double){0})",
        "f": "(({T})1 / {0})",
        "c": "gn_complex_reciprocal({0})",
    },
    "square": {
        "iu": _WRAP.replace("{op}", "*").replace("{1}", "{0}"),
        "f": "({0} * {0})",
        "c": "gn_complex_multiply({0}, {0})",
    },
    "sqrt": _unary_math("sqrt"),
    "cbrt": _unary_math("cbrt", complex_too=False),
    "sign": {
        "i": "(({T})(({0} > 0) - ({0} < 0)))",
        "u": "(({T})({0} > 0))",
        "f": "gn_sign_float({0})",
        "c": "gn_complex_sign({0})",
    },
    "heaviside": {"f": "gn_heaviside({0}, {1})"},
    "conjugate": {"biuf": "{0}", "c": "conj({0})"},
    "gcd": {"iu": "gn_gcd<{T}, {U}>({0}, {1})"},
    "lcm": {"iu": "gn_lcm<{T}, {U}>({0}, {1})"},
    # exponents and logarithms
    **{name: _unary_math(name) for name in ("exp", "log", "log10")},
    **{name: _unary_math(name, complex_too=False) for name in ("exp2", "expm1", "log2")},
    "log1p": _unary_math("log1p", complex_too=False),
    "logaddexp": {"f": "gn_logaddexp({0}, {1})"},
    "logaddexp2": {"f": "gn_logaddexp2({0}, {1})"},
    # trigonometric
    **{name: _unary_math(name) for name in ("sin", "cos", "tan", "sinh", "cosh", "tanh")},
    **{
        numpy_name: _unary_math(c_name)
        for numpy_name, c_name in (
            ("arcsin", "asin"),
            ("arccos", "acos"),
            ("arctan", "atan"),
            ("arcsinh", "asinh"),
            ("arccosh", "acosh"),
            ("arctanh", "atanh"),
        )
    },
    "arctan2": {"f": "atan2({0}, {1})"},
    "hypot": {"f": "hypot({0}, {1})"},
    "degrees": {"f": _TO_DEGREES},
    "rad2deg": {"f": _TO_DEGREES},
    "radians": {"f": _TO_RADIANS},
    "deg2rad": {"f": _TO_RADIANS},
    # comparison
    "greater": _comparison(">", "gn_complex_less({1}, {0})"),
    "greater_equal": _comparison(">=", "gn_complex_less_equal({1}, {0})"),
    "less": _comparison("<", "gn_complex_less({0}, {1})"),
    "less_equal": _comparison("<=", "gn_complex_less_equal({0}, {1})"),
    "equal": _comparison("==", "({0} == {1})"),
    "not_equal": _comparison("!=", "({0} != {1})"),
    "logical_and": _logical("&&"),
    "logical_or": _logical("||"),
    "logical_xor": _logical("!="),
    "logical_not": {"biuf": "({0} == 0)", "c": f"(!{_COMPLEX_TRUTH})"},
    "maximum": _extremum(">", "{0}"),
    "minimum": _extremum("<", "{0}"),
    "fmax": _extremum(">", "{1}"),
    "fmin": _extremum("<", "{1}"),
    # bitwise
    "bitwise_and": {"b": "({0} && {1})", "iu": "(({T})({0} & {1}))"},
    "bitwise_or": {"b": "({0} || {1})", "iu": "(({T})({0} | {1}))"},
    "bitwise_xor": {"b": "({0} != {1})", "iu": "(({T})({0} ^ {1}))"},
    "invert": {"b": "(!{0})", "iu": "(({T})~{0})"},
    "left_shift": {"iu": "gn_left_shift<{T}, {U}, {W}>({0}, {1})"},
    "right_shift": {"iu": "gn_right_shift<{T}, {W}>({0}, {1})"},
    "bitwise_count": {
        "i": "gn_popcount((unsigned long long)({0} < 0 ? ({U})0 - ({U}){0} : ({U}){0}))",
        "u": "gn_popcount((unsigned long long){0})",
    },
    # floating point
    "isfinite": {"biu": "true", "f": "isfinite({0})", "c": _both("isfinite", "&&")},
    "isinf": {"biu": "false", "f": "isinf({0})", "c": _both("isinf", "||")},
    "isnan": {"biu": "false", "f": "isnan({0})", "c": "gn_complex_isnan({0})"},
    "signbit": {"f": "signbit({0})"},
    "copysign": {"f": "copysign({0}, {1})"},
    "nextafter": {"f": "nextafter({0}, {1})"},
    "spacing": {"f": "gn_spacing({0})"},
    "modf": {"f": ("gn_modf_fraction({0})", "gn_modf_whole({0})")},
    "ldexp": {"f": "gn_ldexp({0}, {1})"},
    "frexp": {"f": ("gn_frexp_mantissa({0})", "gn_frexp_exponent({0})")},
    "floor": {"biu": "{0}", "f": "floor({0})"},
    "ceil": {"biu": "{0}", "f": "ceil({0})"},
    "trunc": {"biu": "{0}", "f": "trunc({0})"},
    "rint": {"f": "rint({0})", "c": "{T}(rint({0}.real()), rint({0}.imag()))"},
}

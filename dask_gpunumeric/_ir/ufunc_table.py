"""ufunc_table: one row per NumPy ufunc, the one place that says what a ufunc is and how
each code emitter spells it (STYLE.md point 2).

Read by the namespace and the operators (``_api/ufuncs.py``: one ufunc object per row,
its aliases the same object), the fusion pass (``_passes/scalar_programs.py``), the three
emitters of ``_codegen`` (CUDA C++, numexpr, Numba) and the parity tests: adding a ufunc
is adding a row. A sample row::

    UfuncSpec(
        "add",                                          # NumPy's name: numpy.add
        "arithmetic",                                   # NumPy's reference section
        {                                               # CUDA forms per operand kind
            "iu": "(({T})(({U}){0} + ({U}){1}))",       #   integers wrap
            "f": "({0} + {1})",
            "c": "({0} + {1})",
            "b": "({0} || {1})",                        #   True + True is True
        },
        numexpr=NumexprForm("({0} + {1})", "dd->d"),    # numexpr is exact on float64 only
        numba="{0} + {1}",                              # Numba (float64 loops)
    )

(in the table: ``UfuncSpec("add", "arithmetic", cxx.arithmetic("+", "||"), ...)``).

``cuda`` maps kind letters of the first operand to C++ templates (placeholders and the
differences from NumPy: ``cuda_templates.py``); kinds NumPy has loops for but the kernel
leaves to NumPy/CuPy are in ``unfusible`` with the reason. ``numexpr`` and ``numba`` are
given only where those compute NumPy's bits: a row without one is never sent there.

Why in ``_ir``: every layer that reads it (``_api``, ``_passes``, ``_codegen``, the tests)
may import ``_ir``, and the forms are plain strings, so the table imports nothing of the
emitters; ``_codegen`` only fills them in. In ``_codegen`` the namespace would depend on
the code generators. Operations of fused programs that are not ufuncs (``const``,
``astype``, ``where``...) have their own table, ``program_op_table.py``.
"""

from __future__ import annotations

from . import cuda_templates as cxx
from .ufunc_spec import NumexprForm, UfuncSpec


def _float64_infix(op: str) -> NumexprForm:
    return NumexprForm(f"({{0}} {op} {{1}})", "dd->d")


def _comparison(name: str, op: str, complex_form: str) -> UfuncSpec:
    return UfuncSpec(
        name,
        "comparison",
        cxx.comparison(op, complex_form),
        cuda_mixed=cxx.mixed_comparison(op),
        numexpr=NumexprForm(f"({{0}} {op} {{1}})", "dd->?"),
    )


def _unary_math(
    family: str,
    name: str,
    cpp_name: str = "",
    aliases: tuple[str, ...] = (),
    numexpr: NumexprForm | None = None,
) -> UfuncSpec:
    """A C++ math function (``cpp_name``, else ``name``) on floats and complex numbers."""
    return UfuncSpec(name, family, cxx.unary_math(cpp_name or name), aliases, numexpr=numexpr)


_NO_CPOW = "NumPy's cpow special-cases small integer exponents"
_EXPONENTIAL, _TRIGONOMETRIC = "exponents-logarithms", "trigonometric"

_ARITHMETIC_ROWS = (
    UfuncSpec(
        "add",
        "arithmetic",
        cxx.arithmetic("+", "||"),
        numexpr=_float64_infix("+"),
        numba="{0} + {1}",
    ),
    UfuncSpec(
        "subtract",
        "arithmetic",
        cxx.arithmetic("-", None),
        numexpr=_float64_infix("-"),
        numba="{0} - {1}",
    ),
    UfuncSpec(
        "multiply",
        "arithmetic",
        {**cxx.arithmetic("*", "&&"), "c": "gn_complex_multiply({0}, {1})"},
        numexpr=_float64_infix("*"),
        numba="{0} * {1}",
    ),
    UfuncSpec(
        "divide",
        "arithmetic",
        {"f": "({0} / {1})", "c": "gn_complex_divide({0}, {1})"},
        aliases=("true_divide",),
        numexpr=NumexprForm("({0} / {1})", "dd->d", constant_divisor=False),
        numba="{0} / {1}",
    ),
    UfuncSpec(
        "floor_divide",
        "arithmetic",
        {"iu": "gn_floor_divide_int({0}, {1})", "f": "gn_floor_divide_float({0}, {1})"},
    ),
    UfuncSpec(
        "power",
        "arithmetic",
        {"iu": "gn_power_int<{T}, {U}>({0}, {1})", "f": "pow({0}, {1})"},
        aliases=("pow",),
        unfusible={"c": _NO_CPOW + "; thrust's does not"},
    ),
    UfuncSpec("float_power", "arithmetic", {"f": "pow({0}, {1})"}, unfusible={"c": _NO_CPOW}),
    UfuncSpec(
        "remainder",
        "arithmetic",
        {"iu": "gn_remainder_int({0}, {1})", "f": "gn_remainder_float({0}, {1})"},
        aliases=("mod",),
    ),
    UfuncSpec("fmod", "arithmetic", {"iu": "gn_fmod_int({0}, {1})", "f": "fmod({0}, {1})"}),
    UfuncSpec(
        "divmod",
        "arithmetic",
        {
            "iu": ("gn_floor_divide_int({0}, {1})", "gn_remainder_int({0}, {1})"),
            "f": ("gn_floor_divide_float({0}, {1})", "gn_remainder_float({0}, {1})"),
        },
    ),
    UfuncSpec(
        "negative",
        "arithmetic",
        {"iu": "(({T})(({U})0 - ({U}){0}))", "fc": "(-{0})"},
        numexpr=NumexprForm("(-{0})", "d->d"),
        numba="-{0}",
    ),
    UfuncSpec("positive", "arithmetic", {"iufc": "{0}"}),
    UfuncSpec(
        "absolute",
        "arithmetic",
        {
            "b": "{0}",
            "i": "(({T})({0} < 0 ? ({U})0 - ({U}){0} : ({U}){0}))",
            "u": "{0}",
            "f": "fabs({0})",
            "c": "hypot({0}.real(), {0}.imag())",
        },
        aliases=("abs",),
        numexpr=NumexprForm("abs({0})", "d->d"),
    ),
    UfuncSpec("fabs", "arithmetic", {"f": "fabs({0})"}),
    UfuncSpec(
        "reciprocal",
        "arithmetic",
        {
            "iu": "{D2T}(1.0 / (double){0})",
            "f": "(({T})1 / {0})",
            "c": "gn_complex_reciprocal({0})",
        },
    ),
    UfuncSpec(
        "square",
        "arithmetic",
        {
            "iu": cxx.WRAP.replace("{op}", "*").replace("{1}", "{0}"),
            "f": "({0} * {0})",
            "c": "gn_complex_multiply({0}, {0})",
        },
    ),
    _unary_math("arithmetic", "sqrt", numexpr=NumexprForm("sqrt({0})", "d->d")),
    UfuncSpec("cbrt", "arithmetic", cxx.unary_math("cbrt", complex_too=False)),
    UfuncSpec(
        "sign",
        "arithmetic",
        {
            "i": "(({T})(({0} > 0) - ({0} < 0)))",
            "u": "(({T})({0} > 0))",
            "f": "gn_sign_float({0})",
            "c": "gn_complex_sign({0})",
        },
    ),
    UfuncSpec("heaviside", "arithmetic", {"f": "gn_heaviside({0}, {1})"}),
    UfuncSpec("conjugate", "arithmetic", {"biuf": "{0}", "c": "conj({0})"}, aliases=("conj",)),
    UfuncSpec("gcd", "arithmetic", {"iu": "gn_gcd<{T}, {U}>({0}, {1})"}),
    UfuncSpec("lcm", "arithmetic", {"iu": "gn_lcm<{T}, {U}>({0}, {1})"}),
)

_EXPONENTS_LOGARITHMS_ROWS = (
    _unary_math(_EXPONENTIAL, "exp"),
    UfuncSpec(
        "exp2",
        _EXPONENTIAL,
        cxx.unary_math("exp2", complex_too=False),
        unfusible={"c": "thrust has no complex exp2: within 1 ulp of NumPy not guaranteed"},
    ),
    UfuncSpec(
        "expm1",
        _EXPONENTIAL,
        cxx.unary_math("expm1", complex_too=False),
        unfusible={"c": "thrust has no complex expm1 (exp(z) - 1 loses NumPy's accuracy)"},
    ),
    # gn_log*: CUDA's double logarithms of subnormals (cuda_helpers); thrust's for complex.
    UfuncSpec("log", _EXPONENTIAL, {"f": "gn_log({0})", "c": "log({0})"}),
    UfuncSpec(
        "log2",
        _EXPONENTIAL,
        {"f": "gn_log2({0})"},
        unfusible={"c": "thrust has no complex log2: within 1 ulp of NumPy not guaranteed"},
    ),
    UfuncSpec("log10", _EXPONENTIAL, {"f": "gn_log10({0})", "c": "log10({0})"}),
    UfuncSpec(
        "log1p",
        _EXPONENTIAL,
        cxx.unary_math("log1p", complex_too=False),
        unfusible={"c": "thrust has no complex log1p (log(1 + z) loses NumPy's accuracy)"},
    ),
    UfuncSpec("logaddexp", _EXPONENTIAL, {"f": "gn_logaddexp({0}, {1})"}),
    UfuncSpec("logaddexp2", _EXPONENTIAL, {"f": "gn_logaddexp2({0}, {1})"}),
)

_TRIGONOMETRIC_ROWS = (
    _unary_math(_TRIGONOMETRIC, "sin"),
    _unary_math(_TRIGONOMETRIC, "cos"),
    _unary_math(_TRIGONOMETRIC, "tan"),
    _unary_math(_TRIGONOMETRIC, "arcsin", "asin", aliases=("asin",)),
    _unary_math(_TRIGONOMETRIC, "arccos", "acos", aliases=("acos",)),
    _unary_math(_TRIGONOMETRIC, "arctan", "atan", aliases=("atan",)),
    UfuncSpec("arctan2", _TRIGONOMETRIC, {"f": "atan2({0}, {1})"}, aliases=("atan2",)),
    UfuncSpec("hypot", _TRIGONOMETRIC, {"f": "gn_hypot({0}, {1})"}),
    _unary_math(_TRIGONOMETRIC, "sinh"),
    _unary_math(_TRIGONOMETRIC, "cosh"),
    _unary_math(_TRIGONOMETRIC, "tanh"),
    _unary_math(_TRIGONOMETRIC, "arcsinh", "asinh", aliases=("asinh",)),
    _unary_math(_TRIGONOMETRIC, "arccosh", "acosh", aliases=("acosh",)),
    _unary_math(_TRIGONOMETRIC, "arctanh", "atanh", aliases=("atanh",)),
    UfuncSpec("degrees", _TRIGONOMETRIC, cxx.TO_DEGREES),
    UfuncSpec("radians", _TRIGONOMETRIC, cxx.TO_RADIANS),
    UfuncSpec("deg2rad", _TRIGONOMETRIC, cxx.TO_RADIANS),
    UfuncSpec("rad2deg", _TRIGONOMETRIC, cxx.TO_DEGREES),
)

_COMPARISON_ROWS = (
    _comparison("greater", ">", "gn_complex_less({1}, {0})"),
    _comparison("greater_equal", ">=", "gn_complex_less_equal({1}, {0})"),
    _comparison("less", "<", "gn_complex_less({0}, {1})"),
    _comparison("less_equal", "<=", "gn_complex_less_equal({0}, {1})"),
    _comparison("equal", "==", "({0} == {1})"),
    _comparison("not_equal", "!=", "({0} != {1})"),
    UfuncSpec(
        "logical_and",
        "comparison",
        cxx.logical("&&"),
        numexpr=NumexprForm("({0} & {1})", "??->?"),
    ),
    UfuncSpec(
        "logical_or", "comparison", cxx.logical("||"), numexpr=NumexprForm("({0} | {1})", "??->?")
    ),
    UfuncSpec("logical_xor", "comparison", cxx.logical("!=")),
    UfuncSpec("logical_not", "comparison", cxx.LOGICAL_NOT, numexpr=NumexprForm("(~{0})", "?->?")),
    UfuncSpec("maximum", "comparison", cxx.extremum(">", "{0}")),
    UfuncSpec("minimum", "comparison", cxx.extremum("<", "{0}")),
    UfuncSpec("fmax", "comparison", cxx.extremum(">", "{1}")),
    UfuncSpec("fmin", "comparison", cxx.extremum("<", "{1}")),
)

_BITWISE_ROWS = (
    UfuncSpec("bitwise_and", "bitwise", {"b": "({0} && {1})", "iu": "(({T})({0} & {1}))"}),
    UfuncSpec("bitwise_or", "bitwise", {"b": "({0} || {1})", "iu": "(({T})({0} | {1}))"}),
    UfuncSpec("bitwise_xor", "bitwise", {"b": "({0} != {1})", "iu": "(({T})({0} ^ {1}))"}),
    UfuncSpec(
        "invert",
        "bitwise",
        {"b": "(!{0})", "iu": "(({T})~{0})"},
        aliases=("bitwise_not", "bitwise_invert"),
    ),
    UfuncSpec(
        "left_shift",
        "bitwise",
        {"iu": "gn_left_shift<{T}, {U}, {W}>({0}, {1})"},
        aliases=("bitwise_left_shift",),
    ),
    UfuncSpec(
        "right_shift",
        "bitwise",
        {"iu": "gn_right_shift<{T}, {W}>({0}, {1})"},
        aliases=("bitwise_right_shift",),
    ),
    UfuncSpec(
        "bitwise_count",
        "bitwise",
        {
            "i": "gn_popcount((unsigned long long)({0} < 0 ? ({U})0 - ({U}){0} : ({U}){0}))",
            "u": "gn_popcount((unsigned long long){0})",
        },
    ),
)

_FLOATING_ROWS = (
    UfuncSpec(
        "isfinite",
        "floating",
        {"biu": "true", "f": "isfinite({0})", "c": cxx.both_parts("isfinite", "&&")},
    ),
    UfuncSpec(
        "isinf", "floating", {"biu": "false", "f": "isinf({0})", "c": cxx.both_parts("isinf", "||")}
    ),
    UfuncSpec(
        "isnan", "floating", {"biu": "false", "f": "isnan({0})", "c": "gn_complex_isnan({0})"}
    ),
    UfuncSpec(
        "isnat",
        "floating",
        {},
        unfusible={"biufc": "datetime64/timedelta64 only: no datetime dtypes in fused kernels"},
    ),
    UfuncSpec("signbit", "floating", {"f": "signbit({0})"}),
    UfuncSpec("copysign", "floating", {"f": "copysign({0}, {1})"}),
    UfuncSpec("nextafter", "floating", {"f": "nextafter({0}, {1})"}),
    UfuncSpec("spacing", "floating", {"f": "gn_spacing({0})"}),
    UfuncSpec("modf", "floating", {"f": ("gn_modf_fraction({0})", "gn_modf_whole({0})")}),
    UfuncSpec("ldexp", "floating", {"f": "gn_ldexp({0}, {1})"}),
    UfuncSpec("frexp", "floating", {"f": ("gn_frexp_mantissa({0})", "gn_frexp_exponent({0})")}),
    UfuncSpec("floor", "floating", {"biu": "{0}", "f": "floor({0})"}),
    UfuncSpec("ceil", "floating", {"biu": "{0}", "f": "ceil({0})"}),
    UfuncSpec("trunc", "floating", {"biu": "{0}", "f": "trunc({0})"}),
    UfuncSpec(
        "rint", "floating", {"f": "rint({0})", "c": "{T}(rint({0}.real()), rint({0}.imag()))"}
    ),
)

ufunc_table: tuple[UfuncSpec, ...] = (
    _ARITHMETIC_ROWS
    + _EXPONENTS_LOGARITHMS_ROWS
    + _TRIGONOMETRIC_ROWS
    + _COMPARISON_ROWS
    + _BITWISE_ROWS
    + _FLOATING_ROWS
)

# Every name NumPy exports a ufunc under, aliases too. Instructions carry the row's name.
ufunc_by_name: dict[str, UfuncSpec] = {name: row for row in ufunc_table for name in row.names}

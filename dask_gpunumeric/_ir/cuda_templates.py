"""C++ expression templates: the words the ``cuda`` forms of ``ufunc_table`` and
``program_op_table`` are written with. Plain strings; ``_codegen/cuda.py`` fills them in.

A CUDA form (``CudaForms``) maps NumPy kind letters (``b`` bool, ``i`` signed, ``u``
unsigned, ``f`` float, ``c`` complex) of the loop's first operand to a C++ expression
template; two-output ufuncs have one template per output. Placeholders: ``{0}``, ``{1}``
operands; ``{T}`` the operand's C++ type, ``{U}`` the unsigned type integer arithmetic
wraps in, ``{W}`` the operand's bit width, ``{D2T}`` the cast of a ``double`` to the
result type as x86-64 does it, ``{R}`` the result's C++ type. ``add``'s form
``{"iu": "(({T})(({U}){0} + ({U}){1}))", "f": "({0} + {1})", ...}`` spells it on int32
operands ``in0, in1`` as ``((int)((unsigned int)in0 + (unsigned int)in1))``.

Where C++ and NumPy differ, the template says what NumPy does (helpers in
``_codegen/cuda_helpers.py``): ``True + True`` is ``True``; integer ``+ - *`` wrap (signed
overflow is undefined in C++); ``maximum`` propagates NaN and ``fmax`` ignores it; ``//``
and ``%`` take Python's signs and give 0 for a zero divisor; shifts by the width or more
give 0 (or -1); complex ``/`` is NumPy's Smith division and complex ``*`` NumPy's FMA form.

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

CudaForms = Mapping[str, str | tuple[str, ...]]

WRAP = "(({T})(({U}){0} {op} ({U}){1}))"
_COMPARE = "({0} {op} {1})"
_COMPLEX_TRUTH = "({0}.real() != 0 || {0}.imag() != 0)"


def arithmetic(op: str, bool_op: str | None) -> dict[str, str]:
    """``+ - *``: wrapping integers, C++'s operator on floats and complex, ``bool_op`` on
    bools (NumPy's ``True + True`` is ``True``)."""
    forms = {"iu": WRAP.replace("{op}", op), "f": f"({{0}} {op} {{1}})", "c": f"({{0}} {op} {{1}})"}
    if bool_op is not None:
        forms["b"] = f"({{0}} {bool_op} {{1}})"
    return forms


def comparison(op: str, complex_form: str) -> dict[str, str]:
    return {"biuf": _COMPARE.replace("{op}", op), "c": complex_form}


def mixed_comparison(op: str) -> tuple[str, str]:
    """NumPy's int64-against-uint64 comparison loops (``qQ->?``, ``Qq->?``): exact, with no
    conversion; the first form when the signed operand comes first."""
    return (f"(gn_compare_mixed({{0}}, {{1}}) {op} 0)", f"(0 {op} gn_compare_mixed({{1}}, {{0}}))")


def logical(op: str) -> dict[str, str]:
    truth = {"biuf": "({0} != 0)", "c": _COMPLEX_TRUTH}
    return {kind: f"({t} {op} {t.replace('{0}', '{1}')})" for kind, t in truth.items()}


LOGICAL_NOT = {"biuf": "({0} == 0)", "c": f"(!{_COMPLEX_TRUTH})"}


def both_parts(predicate: str, op: str) -> str:
    return f"({predicate}({{0}}.real()) {op} {predicate}({{0}}.imag()))"


def unary_math(name: str, complex_too: bool = True) -> dict[str, str]:
    """A C++ math function of the same name (``sqrt``, ``exp``...) on floats, and on
    complex numbers (thrust's) when ``complex_too``."""
    forms = {"f": f"{name}({{0}})"}
    if complex_too:
        forms["c"] = f"{name}({{0}})"
    return forms


def extremum(greater: str, nan_of: str) -> dict[str, str]:
    """``maximum``-like forms: ``{0}`` when it wins (ties go to ``{1}`` as in NumPy's SIMD
    loops) or when ``nan_of`` is NaN."""
    return {
        "biu": f"(({{0}} {greater} {{1}}) ? {{0}} : {{1}})",
        "f": f"((({{0}} {greater} {{1}}) || isnan({nan_of})) ? {{0}} : {{1}})",
        "c": f"(({_COMPLEX_WINS[greater]} || gn_complex_isnan({nan_of})) ? {{0}} : {{1}})",
    }


# Complex ties go to the first operand (CGE/CLE in NumPy's loops), real ones to the second.
_COMPLEX_WINS = {
    ">": "gn_complex_less_equal({1}, {0})",
    "<": "gn_complex_less_equal({0}, {1})",
}

# npy_rad2deg: the constant is rounded in the loop's type ((float)180 / (float)pi).
_PI = "({R})3.141592653589793238462643383279502884"
TO_DEGREES = {"f": f"({{0}} * (({{R}})180 / {_PI}))"}
TO_RADIANS = {"f": f"({{0}} * ({_PI} / ({{R}})180))"}

"""Data-only encoding of derivation results (SymPy trees, mpf numbers, tape steps) for the caches.

A cache holds *data*, never code: nothing read from a cache folder is unpickled, evaluated or parsed
as Python or SymPy text.  A SymPy expression is stored as a JSON tree whose nodes name a class from a
fixed allow-list (:data:`NODE_CLASSES`: arithmetic, elementary and special functions, relations, sums and
integrals, the engine's own functions) and whose leaves are exact numbers (integers in hexadecimal,
rationals, floats by mantissa and exponent) and symbols with their assumptions.  Decoding rebuilds the tree
with ``cls(*args, evaluate=False)`` (SymPy's invariant ``expr.func(*expr.args) == expr``; sums, products,
powers, functions and relations unevaluated, in their stored order) and refuses anything else with
:class:`BadData`:

* a class outside the allow-list, in particular classes that *compute when built* (``Poly``,
  ``GroebnerBasis``, ``ComplexRootOf``, ``RootSum``, ``AlgebraicNumber``: a 21 KB entry naming
  ``Poly(x**60000000)`` took a minute and 3 GB to build) and classes that carry text (``Str``);
* a symbol or dummy name that is not a plain name (:func:`safe_name`: a letter, then letters, digits and
  ``_ { } ^ + - ,`` as in ``H_{k-1}``; at most 64 characters; no ``__``, no parenthesis, dot, quote or space; not
  a Python built-in such as ``exec``), or a function name that is not an identifier outside every printer's
  namespace (:func:`safe_function_name`: not a keyword, a built-in such as ``__import__``, or a function of
  mpmath, ``math`` or SymPy, which a printer would call);
* a float precision above :data:`MAX_PREC` bits, a malformed number or node.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> e = sp.log(1 + x) / 3 + sp.Float("0.125", 30) * sp.pi
>>> decode(encode(e)) == e
True
>>> decode({"node": "os.system", "args": []})
Traceback (most recent call last):
...
cbdp_sym.core.serial.BadData: unknown node class 'os.system'
>>> decode({"sympy": {"undef": "__import__", "args": [{"sym": "os"}]}})
Traceback (most recent call last):
...
cbdp_sym.core.serial.BadData: bad function name '__import__'
"""
from __future__ import annotations

import builtins
import dataclasses
import functools
import keyword
import math
import re

import mpmath as mp
import sympy as sp

from cbdp_sym.core.tape import Step, Tex
from cbdp_sym.core.numbers import Estimate


class BadData(ValueError):
    """A stored tree that is malformed or names a class outside the allow-list."""


_HEX = re.compile(r"-?[0-9a-f]+\Z")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}\Z")
_SYMBOL = re.compile(r"[A-Za-z][A-Za-z0-9_{}^+,-]{0,63}\Z")
MAX_PREC = 1 << 17  # bits of a stored Float (about 39,000 digits; the CLI's --dps stops at 1000)

# The SymPy classes a stored tree may name: none of them computes when built unevaluated (no ``Poly``,
# ``GroebnerBasis``, ``ComplexRootOf``, ``RootSum``, ``AlgebraicNumber``, matrices, intervals), none carries text.
NODE_CLASSES = (
    # arithmetic, relations, logic
    "Add", "Mul", "Pow", "Max", "Min", "Abs", "sign", "re", "im", "arg", "conjugate", "floor", "ceiling",
    "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "StrictLessThan", "LessThan", "StrictGreaterThan", "GreaterThan",
    "Equality", "Unequality", "And", "Or", "Not", "Piecewise", "ExprCondPair", "Heaviside", "DiracDelta",
    "KroneckerDelta",
    # elementary functions
    "exp", "log", "LambertW", "sin", "cos", "tan", "cot", "sec", "csc", "asin", "acos", "atan", "atan2", "acot",
    "sinh", "cosh", "tanh", "coth", "sech", "csch", "asinh", "acosh", "atanh", "acoth", "sinc",
    # special functions
    "erf", "erfc", "erfi", "erfinv", "erfcinv", "erf2", "gamma", "loggamma", "lowergamma", "uppergamma",
    "polygamma", "digamma", "trigamma", "beta", "betainc", "betainc_regularized", "factorial", "binomial",
    "RisingFactorial", "FallingFactorial", "zeta", "polylog", "besseli", "besselj", "besselk", "bessely",
    "expint", "Ei", "E1", "Li", "li", "Si", "Ci", "Shi", "Chi", "hyper", "meijerg", "exp_polar", "Ynm",
    # unevaluated calculus, sequences, indexing
    "Integral", "Sum", "Product", "Limit", "Derivative", "Subs", "Lambda", "Tuple", "Indexed", "IndexedBase",
    "Idx", "FiniteSet", "UnevaluatedExpr",
)


def safe_name(name) -> bool:
    """Whether ``name`` may name a stored symbol: a letter, then letters, digits and ``_ { } ^ + - ,`` (at most 64
    characters, no ``__``), and not a Python built-in.  No such name can call anything when a printer writes it
    as Python (no parenthesis, dot, bracket, quote or space); a keyword such as ``lambda`` (a Greek letter) is a
    syntax error there, not a call.

    >>> [safe_name(n) for n in ("alpha", "sigma_1", "H_{k-1}", "lambda", "exec", "__import__", "os.system('x')")]
    [True, True, True, True, False, False, False]
    """
    return (isinstance(name, str) and bool(_SYMBOL.match(name)) and "__" not in name
            and not hasattr(builtins, name))


@functools.lru_cache(maxsize=None)
def _taken_function_names() -> frozenset:
    """Names an undefined function may not take: those of mpmath's, ``math``'s and SymPy's namespaces."""
    return frozenset(dir(mp)) | frozenset(dir(math)) | frozenset(dir(sp))


def safe_function_name(name) -> bool:
    """Whether ``name`` may name a stored undefined function: an identifier (at most 64 characters, no ``__``) that
    is not a Python keyword or built-in and not the name of a function a printer knows (``exp``, ``findroot``,
    ``identify``: mpmath's, ``math``'s and SymPy's namespaces).

    >>> [safe_function_name(n) for n in ("M", "f", "exec", "__import__", "identify", "f(x)")]
    [True, True, False, False, False, False]
    """
    return (isinstance(name, str) and bool(_IDENT.match(name)) and "__" not in name
            and not keyword.iskeyword(name) and not keyword.issoftkeyword(name) and not hasattr(builtins, name)
            and name not in _taken_function_names())


@functools.lru_cache(maxsize=None)
def _whitelist() -> dict:
    """Class name -> class: :data:`NODE_CLASSES` (each resolved in SymPy's namespace)."""
    from sympy.functions.elementary.piecewise import ExprCondPair

    out = {}
    for name in NODE_CLASSES:
        obj = ExprCondPair if name == "ExprCondPair" else getattr(sp, name)
        if not (isinstance(obj, type) and issubclass(obj, sp.Basic)):  # pragma: no cover - another SymPy
            continue
        out[obj.__name__] = obj
    return out


_REGISTERED: dict = {}


def register_function(cls):
    """Allow the engine's own SymPy function class ``cls`` (``Expect``, ``Log1p``, ``Phi``) in stored trees; a
    class decorator, applied where the class is defined (this module stays below them)."""
    _REGISTERED[cls.__name__] = cls
    return cls


def _class_named(name):
    return _whitelist().get(name) or _REGISTERED.get(name)


def _int(text, what="integer"):
    if not isinstance(text, str) or not _HEX.match(text):
        raise BadData(f"bad {what} {text!r}")
    return int(text, 16)


def _hex(n: int) -> str:
    return format(int(n), "x") if n >= 0 else "-" + format(-int(n), "x")


def _assumptions(obj) -> dict:
    if not isinstance(obj, dict) or not all(isinstance(k, str) and _NAME.match(k) and isinstance(v, bool)
                                            for k, v in obj.items()):
        raise BadData("bad assumptions")
    return obj


# -- mpmath numbers ---------------------------------------------------------------------------------
def encode_mpf(x: mp.mpf):
    if mp.isnan(x):
        out = {"mpf": "nan"}
    elif mp.isinf(x):
        out = {"mpf": "inf" if x > 0 else "-inf"}
    else:
        sign, man, exp, _ = x._mpf_
        out = {"mpf": [_hex(-man if sign else man), _hex(exp)]}
    if isinstance(x, Estimate):  # a value that knows its established digits keeps them
        out["digits"] = int(x.digits)
    return out


def decode_mpf(obj) -> mp.mpf:
    v = obj.get("mpf") if isinstance(obj, dict) else None
    if v in ("nan", "inf", "-inf"):
        value = mp.mpf(v)._mpf_
    elif isinstance(v, list) and len(v) == 2:
        # exact: normalised without rounding, and not rounded to the context's precision either (a value
        # computed at a higher precision than its caller's comes back with every bit)
        value = mp.libmp.from_man_exp(_int(v[0], "mantissa"), _int(v[1], "exponent"))
    else:
        raise BadData("bad mpf")
    if "digits" in obj:
        d = obj["digits"]
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 10**6:
            raise BadData("bad digits")
        est = Estimate(0, d)
        est._mpf_ = value
        return est
    return mp.make_mpf(value)


# -- SymPy trees ------------------------------------------------------------------------------------
def _encode_basic(e: sp.Basic):
    if isinstance(e, sp.Dummy):
        if not safe_name(e.name):
            raise TypeError(f"cannot store a dummy named {e.name!r}")
        return {"dummy": e.name, "index": e.dummy_index, "assume": dict(e._assumptions_orig)}
    if isinstance(e, sp.Symbol):
        if type(e) is not sp.Symbol:
            raise TypeError(f"cannot store a {type(e).__name__}")
        if not safe_name(e.name):
            raise TypeError(f"cannot store a symbol named {e.name!r}")
        return {"sym": e.name, "assume": dict(e._assumptions_orig)}
    if isinstance(e, sp.Integer):
        return {"int": _hex(e.p)}
    if isinstance(e, sp.Rational):
        return {"rat": [_hex(e.p), _hex(e.q)]}
    if isinstance(e, sp.Float):
        if not 1 <= e._prec <= MAX_PREC:
            raise TypeError(f"cannot store a Float of {e._prec} bits")
        return {"float": encode_mpf(mp.mpf(e._mpf_))["mpf"], "prec": e._prec}
    name = type(e).__name__
    if not e.args and getattr(sp.S, name, None) is e:
        return {"S": name}
    if isinstance(e, sp.core.function.AppliedUndef):
        if not safe_function_name(name):
            raise TypeError(f"cannot store a function named {name!r}")
        return {"undef": name, "args": [_encode_basic(a) for a in e.args]}
    if _class_named(name) is not type(e):
        raise TypeError(f"cannot store a {name}")
    return {"node": name, "args": [_encode_basic(a) for a in e.args]}


def _decode_basic(obj):
    if not isinstance(obj, dict):
        raise BadData("a SymPy node must be an object")
    if "int" in obj:
        return sp.Integer(_int(obj["int"]))
    if "rat" in obj:
        if not (isinstance(obj["rat"], list) and len(obj["rat"]) == 2):
            raise BadData("bad rational")
        p, q = obj["rat"]
        q = _int(q)
        if q <= 0:
            raise BadData("bad rational")
        return sp.Rational(_int(p), q)
    if "float" in obj:
        prec = obj.get("prec")
        if not isinstance(prec, int) or isinstance(prec, bool) or not 1 <= prec <= MAX_PREC:
            raise BadData("bad float precision")
        return sp.Float._new(decode_mpf({"mpf": obj["float"]})._mpf_, prec)
    if "sym" in obj:
        name = obj["sym"]
        if not safe_name(name):
            raise BadData(f"bad symbol name {name!r}" if isinstance(name, str) else "bad symbol name")
        return sp.Symbol(name, **_assumptions(obj.get("assume", {})))
    if "dummy" in obj:
        name, idx = obj["dummy"], obj.get("index")
        if not safe_name(name) or not isinstance(idx, int) or isinstance(idx, bool):
            raise BadData("bad dummy")
        return sp.Dummy(name, dummy_index=idx, **_assumptions(obj.get("assume", {})))
    if "S" in obj:
        name = obj["S"]
        val = getattr(sp.S, name, None) if isinstance(name, str) and _IDENT.match(name) else None
        if not isinstance(val, sp.Basic) or val.args:
            raise BadData(f"unknown singleton {name!r}")
        return val
    args = obj.get("args")
    if not isinstance(args, list):
        raise BadData("a node needs a list of args")
    if "undef" in obj:
        name = obj["undef"]
        if not safe_function_name(name):
            raise BadData(f"bad function name {name!r}" if isinstance(name, str) else "bad function name")
        return sp.Function(name)(*[_decode_basic(a) for a in args])
    name = obj.get("node")
    cls = _class_named(name) if isinstance(name, str) else None
    if cls is None:
        raise BadData(f"unknown node class {name!r}" if isinstance(name, str) else "unknown node class")
    try:
        args = [_decode_basic(a) for a in args]
        if issubclass(cls, (sp.core.operations.AssocOp, sp.Pow, sp.Function, sp.core.relational.Relational,
                            sp.Piecewise, sp.FiniteSet)):
            # the stored argument order is kept (a sum built unevaluated prints in its own order); a function
            # (exp, log, Abs, Piecewise, ...) or a relation is rebuilt as stored, not evaluated again: the stored
            # tree is the evaluated one, and evaluating it again costs assumption queries (most of a warm audit's
            # decoding) and would compute on data
            return cls(*args, evaluate=False)
        return cls(*args)
    except BadData:
        raise
    except Exception as exc:  # noqa: BLE001 - a malformed tree is bad data, whatever SymPy raises
        raise BadData(f"cannot rebuild {name}: {type(exc).__name__}") from None


# -- data classes (the audit's results): only those registered, field by field ---------------------------
_DATACLASSES: dict = {}


def register_dataclass(cls):
    """Allow instances of the data class ``cls`` in stored values (its fields must be storable in turn).  An
    entry names the class as ``module.qualname``; decoding rebuilds it with ``cls(**fields)``, refusing a class
    that is not registered and a field the class does not have."""
    if not dataclasses.is_dataclass(cls) or not isinstance(cls, type):
        raise TypeError(f"{cls!r} is not a data class")
    _DATACLASSES[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return cls


def _dc_name(value):
    cls = type(value)
    name = f"{cls.__module__}.{cls.__qualname__}"
    return name if _DATACLASSES.get(name) is cls else None


# -- values: SymPy, mpf, Tex, steps and containers of them ---------------------------------------------
def encode(value):
    """JSON-able form of ``value`` (raises ``TypeError`` for anything that cannot be stored as data)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return {"pyint": _hex(value)}
    if isinstance(value, float):
        return {"pyfloat": value.hex()}
    if isinstance(value, mp.mpf):
        return encode_mpf(value)
    if isinstance(value, sp.Basic):
        return {"sympy": _encode_basic(value)}
    if isinstance(value, Tex):
        return {"tex": value.latex}
    if isinstance(value, Step):
        return {"step": [encode(value.lhs), encode(value.rhs), encode(value.note), encode(value.rel)]}
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return {"list": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    name = _dc_name(value)
    if name is not None:
        return {"dc": name, "fields": [[f.name, encode(getattr(value, f.name))] for f in dataclasses.fields(value)]}
    raise TypeError(f"cannot store a {type(value).__name__}")


def decode(obj):
    """Inverse of :func:`encode`; raises :class:`BadData` on anything malformed."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if not isinstance(obj, dict) or len(obj) == 0:
        if isinstance(obj, dict):
            raise BadData("empty object")
        # a bare SymPy node (the doctest above) or anything else
        raise BadData(f"unexpected {type(obj).__name__}")
    if "pyint" in obj:
        return _int(obj["pyint"])
    if "pyfloat" in obj:
        try:
            return float.fromhex(obj["pyfloat"])
        except (TypeError, ValueError):
            raise BadData("bad float") from None
    if "mpf" in obj:
        return decode_mpf(obj)
    if "sympy" in obj:
        return _decode_basic(obj["sympy"])
    if "tex" in obj:
        if not isinstance(obj["tex"], str):
            raise BadData("bad Tex")
        return Tex(obj["tex"])
    if "step" in obj:
        parts = obj["step"]
        if not (isinstance(parts, list) and len(parts) == 4):
            raise BadData("bad step")
        lhs, rhs, note, rel = (decode(p) for p in parts)
        if not (isinstance(note, str) and isinstance(rel, str)):
            raise BadData("bad step")
        return Step(lhs, rhs, note, rel)
    for tag, kind in (("tuple", tuple), ("list", list)):
        if tag in obj:
            if not isinstance(obj[tag], list):
                raise BadData(f"bad {tag}")
            return kind(decode(v) for v in obj[tag])
    if "dict" in obj:
        items = obj["dict"]
        if not isinstance(items, list) or not all(isinstance(i, list) and len(i) == 2 for i in items):
            raise BadData("bad dict")
        try:
            return {decode(k): decode(v) for k, v in items}
        except TypeError:
            raise BadData("unhashable key") from None
    if "dc" in obj:
        cls = _DATACLASSES.get(obj["dc"]) if isinstance(obj["dc"], str) else None
        if cls is None:
            raise BadData(f"unknown data class {obj['dc']!r}")
        items = obj.get("fields")
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        if not (isinstance(items, list) and all(isinstance(i, list) and len(i) == 2 and i[0] in known for i in items)):
            raise BadData(f"bad fields of {obj['dc']}")
        try:
            return cls(**{k: decode(v) for k, v in items})
        except TypeError:
            raise BadData(f"cannot rebuild {obj['dc']}") from None
    if "node" in obj or "sym" in obj:
        return _decode_basic(obj)
    raise BadData(f"unknown tag {sorted(obj)[0]!r}")


def _same_basic(a, b) -> bool:
    if type(a) is not type(b) or len(a.args) != len(b.args):
        return False
    if isinstance(a, sp.Float):
        return a._mpf_ == b._mpf_ and a._prec == b._prec
    if isinstance(a, sp.Symbol):
        return a == b and a._assumptions_orig == b._assumptions_orig
    if not a.args:
        return a == b
    return all(_same_basic(x, y) for x, y in zip(a.args, b.args))


def round_trips(value) -> bool:
    """Whether ``value`` decodes to the identical tree after :func:`encode` (what a cache may store: an entry read
    back must be the value itself, node by node)."""
    try:
        return same_tree(decode(encode(value)), value)
    except (TypeError, BadData, RecursionError):
        return False


def same_tree(a, b) -> bool:
    """``True`` if two values are structurally identical: SymPy trees node by node with their argument
    order (which decides how they print), floats with their precision, symbols with their assumptions."""
    if isinstance(a, sp.Basic) or isinstance(b, sp.Basic):
        return isinstance(a, sp.Basic) and isinstance(b, sp.Basic) and _same_basic(a, b)
    if isinstance(a, Step) and isinstance(b, Step):
        return all(same_tree(x, y) for x, y in zip((a.lhs, a.rhs, a.note, a.rel), (b.lhs, b.rhs, b.note, b.rel)))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same_tree(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return (len(a) == len(b) and list(a) == list(b)  # (the order decides how a dict is written)
                and all(same_tree(v, b[k]) for k, v in a.items()))
    if _dc_name(a) is not None or _dc_name(b) is not None:
        return type(a) is type(b) and all(same_tree(getattr(a, f.name), getattr(b, f.name))
                                          for f in dataclasses.fields(a))
    if isinstance(a, mp.mpf) and isinstance(b, mp.mpf):
        return (type(a) is type(b) and getattr(a, "digits", None) == getattr(b, "digits", None)
                and (a._mpf_ == b._mpf_ or (mp.isnan(a) and mp.isnan(b))))
    return type(a) is type(b) and a == b

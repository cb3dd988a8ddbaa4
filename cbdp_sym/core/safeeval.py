"""SymPy expressions evaluated in mpmath without running generated code: a drop-in for ``sympy.lambdify(...,
modules="mpmath")`` on trees that may come from a cache.

``lambdify`` prints an expression as Python source and runs it with ``exec``: a symbol or function whose *name*
is Python (``__import__('os').system(...)``) becomes code.  :func:`compile_mp` prints the expression with the same
printer and the same common-subexpression elimination, then reads the printed source as data (:mod:`ast`) and
builds an evaluator of closures from it; nothing is passed to ``exec``, ``eval`` or ``compile``.  It accepts
only what a printed SymPy expression of the allowed classes (:data:`cbdp_sym.core.serial.NODE_CLASSES` and the
engine's registered functions) consists of:

* names: the function's parameters, its common subexpressions, the caller's ``functions`` and the mpmath
  functions and constants of :data:`NAMES` (plus the built-ins ``abs``, ``max``, ``min``); any other name
  (``exec``, ``__import__``, ``open``, a free symbol) is refused before anything runs;
* arithmetic, comparisons, ``and``/``or``/``not``, conditional expressions (``Piecewise``), calls of those names,
  numbers, tuples and lists; no attribute access, subscripts, strings, lambdas or comprehensions.

The operations are those of the printed source, in its order (Python evaluates a binary operation left operand
first, then the right one, then the operator: so do the closures), so every value is bit for bit what
``lambdify`` would return.

>>> import sympy as sp, mpmath as mp
>>> x, a = sp.symbols("x alpha", positive=True)
>>> f = compile_mp((x, a), [sp.exp(-x) * x**a, sp.log(1 + x) / a], cse=True)
>>> with mp.workdps(20):
...     f(mp.mpf(2), mp.mpf(3))
[mpf('1.0826822658929015351521'), mpf('0.36620409622270323046522')]
>>> compile_mp((x,), sp.Function("exec")(x))
Traceback (most recent call last):
...
cbdp_sym.core.safeeval.Refused: cannot evaluate a function named 'exec'
"""
from __future__ import annotations

import ast
import builtins
import functools
import importlib
import operator

import sympy as sp

from cbdp_sym.core.errors import DerivationError
from cbdp_sym.core.serial import NODE_CLASSES, _REGISTERED, _whitelist, safe_name

# the mpmath names a printed SymPy expression of the allowed classes may use (functions and constants of
# ``from mpmath import *`` and lambdify's translations of SymPy names to them)
NAMES = frozenset({
    "mpf", "pi", "e", "euler", "catalan", "inf", "nan", "j",
    "exp", "log", "ln", "sqrt", "cbrt", "root", "power", "log1p", "expm1",
    "sin", "cos", "tan", "cot", "sec", "csc", "asin", "acos", "atan", "atan2", "acot",
    "sinh", "cosh", "tanh", "coth", "sech", "csch", "asinh", "acosh", "atanh", "acoth", "sinc",
    "erf", "erfc", "erfi", "erfinv", "gamma", "loggamma", "polygamma", "digamma", "psi", "beta", "betainc",
    "betainc_regularized", "factorial", "binomial", "rf", "ff", "RisingFactorial", "FallingFactorial", "zeta",
    "polylog", "besseli", "besselj", "besselk", "bessely", "expint", "ei", "e1", "Ei", "E1", "li", "Li", "si", "ci",
    "shi", "chi", "Si", "Ci", "Shi", "Chi", "hyper", "meijerg", "lambertw", "LambertW", "gammainc", "uppergamma",
    "lowergamma", "fabs", "Abs", "sign", "floor", "ceil", "ceiling", "re", "im", "arg", "conj", "conjugate",
})
_BUILTINS = {"abs": builtins.abs, "max": builtins.max, "min": builtins.min}


class Refused(DerivationError):
    """An expression (or its printed form) that :func:`compile_mp` does not evaluate."""


@functools.lru_cache(maxsize=None)
def _mpmath_namespace() -> dict:
    lam = importlib.import_module("sympy.utilities.lambdify")
    ns = dict(lam._get_namespace("mpmath"))  # what lambdify's code would see: mpmath's names and translations
    return {k: v for k, v in ns.items() if k in NAMES}


def _check_tree(exprs, args, functions) -> None:
    """Refuse a tree with a class outside the allow-list, an unsafe or free symbol, or an unknown function."""
    allowed = set(_whitelist().values()) | set(_REGISTERED.values())
    params = set(args)
    for expr in exprs:
        for node in sp.preorder_traversal(expr):
            if isinstance(node, sp.Symbol):
                if not safe_name(node.name):
                    raise Refused(f"cannot evaluate a symbol named {node.name!r}")
                continue
            if isinstance(node, sp.core.function.AppliedUndef):
                name = type(node).__name__
                if name not in functions:
                    raise Refused(f"cannot evaluate a function named {name!r}")
                continue
            if isinstance(node, (sp.Number, sp.NumberSymbol, sp.core.numbers.ImaginaryUnit)) or node in (
                    sp.S.Infinity, sp.S.NegativeInfinity, sp.S.NaN, sp.S.ComplexInfinity, sp.true, sp.false):
                continue
            if type(node) in allowed or type(node).__name__ in functions:
                continue
            raise Refused(f"cannot evaluate a {type(node).__name__}")
        free = expr.free_symbols - params if isinstance(expr, sp.Basic) else set()
        if free:
            raise Refused(f"free symbols {sorted(map(str, free))} that are not arguments")


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.Pow: operator.pow, ast.Mod: operator.mod, ast.FloorDiv: operator.floordiv}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}
_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Eq: operator.eq, ast.NotEq: operator.ne}


class _Builder:
    """Closures ``env -> value`` from the nodes of a printed expression (``env``: the list of local values, in the
    order of :attr:`slots`: the parameters, then each common subexpression)."""

    def __init__(self, namespace, local_names):
        self.namespace = namespace
        self.slots = {name: i for i, name in enumerate(local_names)}

    def bind(self, name) -> None:
        self.slots[name] = len(self.slots)

    def build(self, node):
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise Refused(f"printed form holds a {type(node).__name__}")
        return method(node)

    def _leaf(self, node):
        """``("slot", i)`` or ``("value", v)`` for a name or a constant (so that an operation on it needs no call
        to get it), else ``None``."""
        if isinstance(node, ast.Name):
            if node.id in self.slots:
                return "slot", self.slots[node.id]
            if node.id in self.namespace:
                return "value", self.namespace[node.id]
            raise Refused(f"printed form names {node.id!r}")
        if isinstance(node, ast.Constant):
            self._Constant(node)  # (checks the type)
            return "value", node.value
        return None

    def _Constant(self, node):
        v = node.value
        if type(v) not in (int, float, bool) and v is not None:
            raise Refused(f"printed form holds a constant of type {type(v).__name__}")
        return lambda env: v

    def _Name(self, node):
        kind, v = self._leaf(node)
        if kind == "slot":
            return lambda env: env[v]
        return lambda env: v

    def _Tuple(self, node):
        items = self._List(node)
        return lambda env: tuple(items(env))

    def _List(self, node):
        parts = [self.build(e) for e in node.elts]
        if len(parts) == 1:
            (p0,) = parts
            return lambda env: [p0(env)]
        if len(parts) == 2:
            p0, p1 = parts
            return lambda env: [p0(env), p1(env)]
        if len(parts) == 3:
            p0, p1, p2 = parts
            return lambda env: [p0(env), p1(env), p2(env)]
        return lambda env: [p(env) for p in parts]

    def _BinOp(self, node):
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise Refused(f"printed form holds the operator {type(node.op).__name__}")
        lk, rk = self._leaf(node.left), self._leaf(node.right)
        # (the same operation on the same operands, in the same order: only how an operand is fetched differs)
        if lk and rk:
            (a, i), (b, j) = lk, rk
            if a == "slot" and b == "slot":
                return lambda env: op(env[i], env[j])
            if a == "slot":
                return lambda env: op(env[i], j)
            if b == "slot":
                return lambda env: op(i, env[j])
            return lambda env: op(i, j)
        if lk:
            a, i = lk
            right = self.build(node.right)
            if a == "slot":
                return lambda env: op(env[i], right(env))
            return lambda env: op(i, right(env))
        left = self.build(node.left)
        if rk:
            b, j = rk
            if b == "slot":
                return lambda env: op(left(env), env[j])
            return lambda env: op(left(env), j)
        right = self.build(node.right)
        return lambda env: op(left(env), right(env))

    def _UnaryOp(self, node):
        op = _UNARY.get(type(node.op))
        if op is None:
            raise Refused(f"printed form holds the operator {type(node.op).__name__}")
        arg = self.build(node.operand)
        return lambda env: op(arg(env))

    def _BoolOp(self, node):
        parts = [self.build(v) for v in node.values]
        if isinstance(node.op, ast.And):
            def f(env):
                v = True
                for p in parts:
                    v = p(env)
                    if not v:
                        return v
                return v
        else:
            def f(env):
                v = False
                for p in parts:
                    v = p(env)
                    if v:
                        return v
                return v
        return f

    def _Compare(self, node):
        ops = []
        for o in node.ops:
            if type(o) not in _COMPARE:
                raise Refused(f"printed form holds the comparison {type(o).__name__}")
            ops.append(_COMPARE[type(o)])
        first = self.build(node.left)
        rest = [self.build(c) for c in node.comparators]

        def f(env):
            a = first(env)
            v = True
            for op, c in zip(ops, rest):
                b = c(env)
                v = op(a, b)
                if not v:
                    return v
                a = b
            return v

        return f

    def _IfExp(self, node):
        test, body, orelse = self.build(node.test), self.build(node.body), self.build(node.orelse)
        return lambda env: body(env) if test(env) else orelse(env)

    def _Call(self, node):
        if not isinstance(node.func, ast.Name):
            raise Refused("printed form calls something other than a name")
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise Refused("printed form unpacks arguments")
        kind, f = self._leaf(node.func)
        if kind != "value":
            raise Refused(f"printed form calls the local value {node.func.id!r}")
        args = [self.build(a) for a in node.args]
        kw = [(k.arg, self.build(k.value)) for k in node.keywords]
        if kw:
            return lambda env: f(*[a(env) for a in args], **{k: v(env) for k, v in kw})
        if len(args) == 1:
            (a0,) = args
            return lambda env: f(a0(env))
        if len(args) == 2:
            a0, a1 = args
            return lambda env: f(a0(env), a1(env))
        return lambda env: f(*[a(env) for a in args])


def printed_source(args, expr, functions=None, cse=False) -> str:
    """The source ``sympy.lambdify(args, expr, modules=[functions, "mpmath"], cse=cse)`` would run (printed with its
    printer, after its common-subexpression elimination), as text."""
    lam = importlib.import_module("sympy.utilities.lambdify")
    from sympy.printing.pycode import MpmathPrinter

    functions = functions or {}
    printer = MpmathPrinter({"fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True,
                             "user_functions": {k: k for k in functions}})
    if cse:
        from sympy.simplify.cse_main import cse as _cse

        cses, body = _cse(expr, list=False)
    else:
        cses, body = (), expr
    iterable_args = (args,) if isinstance(args, sp.Expr) else args
    return lam._EvaluatorPrinter(printer, False).doprint("_lambdifygenerated", iterable_args, body, cses=cses)


def compile_mp(args, expr, functions: dict | None = None, cse: bool = False):
    """A function of ``args`` evaluating ``expr`` (one expression, or a list or tuple of them) in mpmath, with the
    values ``sympy.lambdify(args, expr, modules=[functions, "mpmath"], cse=cse)`` gives, without running printed
    code (see the module's docstring).  ``functions``: names of undefined or engine functions -> their mpmath
    implementations (``{"Phi": Phi.mp}``).  Raises :class:`Refused` for anything outside what it evaluates."""
    functions = dict(functions or {})
    for name in functions:
        if not safe_name(name) or name in NAMES or name in _BUILTINS:
            raise Refused(f"cannot bind a function to the name {name!r}")
    exprs = list(expr) if isinstance(expr, (list, tuple)) else [expr]
    params = list((args,) if isinstance(args, sp.Expr) else args)
    if not all(isinstance(a, sp.Symbol) for a in params):
        raise Refused("the arguments must be symbols")
    _check_tree([sp.sympify(e) for e in exprs], params, functions)
    source = printed_source(params, expr, functions, cse)
    try:
        module = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        raise Refused("the printed form is not an expression") from None
    if len(module.body) != 1 or not isinstance(module.body[0], ast.FunctionDef):
        raise Refused("the printed form is not one function")
    fdef = module.body[0]
    a = fdef.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs or fdef.decorator_list:
        raise Refused("the printed function takes other arguments")
    names = [p.arg for p in a.args]
    if len(names) != len(params) or len(set(names)) != len(names):
        raise Refused("the printed function takes other arguments")
    namespace = dict(_mpmath_namespace())
    namespace.update(_BUILTINS)
    namespace.update(functions)
    builder = _Builder(namespace, names)
    steps = []
    result = None
    for stmt in fdef.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            target = stmt.targets[0].id
            if target in builder.slots or target in namespace:
                raise Refused(f"the printed function assigns {target!r} twice")
            steps.append(builder.build(stmt.value))  # (built before the name is bound: no use before assignment)
            builder.bind(target)
        elif isinstance(stmt, ast.Return) and stmt.value is not None and result is None:
            result = builder.build(stmt.value)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            continue  # a docstring
        else:
            raise Refused(f"the printed function holds a {type(stmt).__name__}")
    if result is None:
        raise Refused("the printed function returns nothing")
    n = len(names)

    def fn(*values):
        if len(values) != n:
            raise TypeError(f"expected {n} arguments, got {len(values)}")
        env = list(values)
        for step in steps:
            env.append(step(env))
        return result(env)

    return fn

"""The stub ``strategy_calc/_engine.pyi`` matches the compiled module, signature by signature.

``mypy.stubtest`` compares names only for Cython's functions (they are neither
Python functions nor builtins to it), so this test reads the stub's syntax tree
and compares every function's and method's parameters (names, kinds, which have
defaults, and the defaults' values where the stub writes them) with
``inspect.signature`` of the compiled object, and every enum's members and values.
"""

from __future__ import annotations

import ast
import enum
import inspect
from pathlib import Path

import numpy as np
import pytest

from strategy_calc import _engine

STUB = Path(_engine.__file__).with_name("_engine.pyi")
if not STUB.exists():  # an installed (non-editable) package ships the stub beside the module
    STUB = Path(__file__).parents[2] / "strategy_calc" / "_engine.pyi"


def _stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text())


def _params(node: ast.FunctionDef) -> list[tuple[str, str, object]]:
    """(name, kind, default) of a stub function; default ``...`` when there is one."""
    a = node.args
    out: list[tuple[str, str, object]] = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for arg, default in zip(positional, defaults, strict=True):
        kind = "POSITIONAL_ONLY" if arg in a.posonlyargs else "POSITIONAL_OR_KEYWORD"
        out.append((arg.arg, kind, _literal(default)))
    if a.vararg:
        out.append((a.vararg.arg, "VAR_POSITIONAL", None))
    for arg, kw_default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        out.append((arg.arg, "KEYWORD_ONLY", _literal(kw_default)))
    if a.kwarg:
        out.append((a.kwarg.arg, "VAR_KEYWORD", None))
    return out


_NO_DEFAULT = object()


def _literal(node: ast.expr | None) -> object:
    if node is None:
        return _NO_DEFAULT
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return Ellipsis  # a default the stub does not spell out
    return ast.literal_eval(node)


def _compiled(obj: object) -> list[tuple[str, str, object]]:
    out: list[tuple[str, str, object]] = []
    for p in inspect.signature(obj).parameters.values():  # type: ignore[arg-type]
        default = _NO_DEFAULT if p.default is inspect.Parameter.empty else p.default
        out.append((p.name, p.kind.name, default))
    return out


def _same(stub: list[tuple[str, str, object]], real: list[tuple[str, str, object]]) -> bool:
    if len(stub) != len(real):
        return False
    for (name, kind, default), (rname, rkind, rdefault) in zip(stub, real, strict=True):
        if name != rname or kind != rkind:
            return False
        if (default is _NO_DEFAULT) != (rdefault is _NO_DEFAULT):
            return False
        if default not in (_NO_DEFAULT, Ellipsis) and default != rdefault:
            return False
    return True


def _functions() -> list[tuple[str, ast.FunctionDef, object]]:
    cases: list[tuple[str, ast.FunctionDef, object]] = []
    for node in _stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            cases.append((node.name, node, getattr(_engine, node.name)))
        elif isinstance(node, ast.ClassDef) and not _is_enum(node):
            cls = getattr(_engine, node.name)
            for item in node.body:
                # (an extension type's constructor is its __cinit__, which has no
                # signature to read: the tests that construct each type check it)
                if isinstance(item, ast.FunctionDef) and item.name != "__init__" and not any(
                        isinstance(d, ast.Name) and d.id == "property"
                        for d in item.decorator_list):
                    cases.append((f"{node.name}.{item.name}", item, getattr(cls, item.name)))
    return cases


def _is_enum(node: ast.ClassDef) -> bool:
    return any(isinstance(b, ast.Name) and b.id == "IntEnum" for b in node.bases)


@pytest.mark.parametrize(("name", "node", "obj"), _functions(), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_every_stub_signature_is_the_compiled_one(name: str, node: ast.FunctionDef,
                                                  obj: object) -> None:
    stub = _params(node)
    real = _compiled(obj)
    assert _same(stub, real), f"{name}: stub {stub} != compiled {real}"


def test_every_public_compiled_name_is_in_the_stub() -> None:
    stubbed = {n.name for n in _stub_tree().body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    public = {n for n in dir(_engine) if not n.startswith("_")
              and (callable(getattr(_engine, n)) or isinstance(getattr(_engine, n), type))}
    assert public - stubbed == set()


def test_the_stub_enums_are_the_compiled_ones() -> None:
    """The constants of ``_engine.pxd`` as the stub writes them (names and values)."""
    enums = [n for n in _stub_tree().body if isinstance(n, ast.ClassDef) and _is_enum(n)]
    compiled = {n for n in dir(_engine) if isinstance(getattr(_engine, n), type)
                and issubclass(getattr(_engine, n), enum.IntEnum)}
    assert {e.name for e in enums} == compiled
    assert {"Hist", "PassColumn", "RowFlag", "PlayCode", "SplitColumn"} <= compiled
    for node in enums:
        real = getattr(_engine, node.name)
        assert issubclass(real, enum.IntEnum)
        stub = {t.id: ast.literal_eval(a.value) for a in node.body if isinstance(a, ast.Assign)
                for t in a.targets if isinstance(t, ast.Name)}
        assert stub == {m.name: int(m) for m in real}, node.name


def test_a_changed_signature_is_caught() -> None:
    """The comparison is live: a stub with a renamed parameter does not match."""
    node = next(n for n in _stub_tree().body
                if isinstance(n, ast.FunctionDef) and n.name == "dealer_probs")
    stub = _params(node)
    real = _compiled(_engine.dealer_probs)
    assert _same(stub, real)
    renamed = [("dealer" if n == "drule" else n, k, d) for n, k, d in stub]
    assert not _same(renamed, real)
    assert not _same(stub[:-1], real)


def test_the_extension_types_take_the_constructor_arguments_the_stub_names() -> None:
    """An extension type is built by ``__cinit__``, whose signature neither stubtest nor
    ``inspect`` can read (.ci/stubtest-allowlist.txt): construct each one with keyword
    arguments named exactly as the stub's ``__init__`` declares them."""
    from strategy_calc.cards import Rank, Shoe
    from strategy_calc.engine import engine_params, int_array
    from strategy_calc.rules import blackjack_rules

    inits = {n.name: [a.arg for a in item.args.args[1:]]
             for n in _stub_tree().body if isinstance(n, ast.ClassDef)
             for item in n.body if isinstance(item, ast.FunctionDef) and item.name == "__init__"}
    shoe = int_array(Shoe.full(1).counts)
    values = {"DealerMemo": {"origin": shoe, "drule": 0, "up": 0, "reserve": 0},
              "OptimalSplit": {"base": int_array(Shoe.full(1).remove([]).counts),
                               "pair": int(Rank.EIGHT), "up": int(Rank.TEN),
                               "params": engine_params(blackjack_rules("deluxe", decks=1),
                                                       pair=Rank.EIGHT),
                               "max_hands": 2, "second": None, "resplit": None,
                               "own_only": None, "memory_limit": None},
              "ChartDeal": {"actions": np.zeros((10, 10, 10, 2), dtype=np.int8),
                            "even_money": [False] * 10, "insure": [False] * 10,
                            "codes": [bytes(4096)] * 10, "split_hands": [4] * 10,
                            "split_one_card": [False] * 10, "split_double": [True] * 10,
                            "double_two": [True] * 22, "double_more": [[False] * 22] * 2,
                            "peek": True, "hole_at_once": True, "burn_dealer": False,
                            "h17": False, "charlie": 0,
                            "bonus_any": [bytes(4096)] * 2, "bonus_678": 0,
                            "bonus_settles": True, "seats": 1}}
    assert set(inits) == set(values)
    for name, args in inits.items():
        assert list(values[name]) == args, name
        getattr(_engine, name)(**values[name])  # a wrong name raises TypeError

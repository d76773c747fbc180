"""The .pyi stub names exactly what the module exports, and the public classes and functions have docstrings."""
import ast
import os

import ge

STUB = os.path.join(os.path.dirname(ge.__file__), "__init__.pyi")


def stub_names():
    tree = ast.parse(open(STUB).read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def public_names():
    return {n for n in dir(ge) if not n.startswith("_")} | {"__version__"}


def test_stub_matches_module():
    aliases = {"ModelSource", "Dim", "Feed", "Provider", "OpInput", "AttrValue"}  # type aliases of the stub only
    assert stub_names() - {"__version__"} == public_names() - {"__version__"}
    assert not aliases & public_names()


def test_docstrings():
    for name in ("compile", "detect_model_format", "InferenceSession", "OfflineModel", "SessionOptions",
                 "CompileReport", "NodeArg", "Error", "InvalidArgument"):
        assert getattr(ge, name).__doc__, name
    assert ge.InferenceSession.run.__doc__ and ge.OfflineModel.execute.__doc__
    assert ge.__doc__ and "InferenceSession" in ge.__doc__

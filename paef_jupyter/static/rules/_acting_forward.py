"""Acting forwards: a trained network run with autograd on whose output reaches Python only as a
number (a DQN's greedy action `int(q(s).argmax().item())`, a policy's `dist.sample().item()` fed to
`env.step`). The graph each call records can never be back-propagated: nothing keeps the output.

Facts used (pub64 p03):
- the network is trained: its object is handed to a `torch.optim` optimizer somewhere in the unit
  (`Adam(self.model.parameters())`), so its parameters require grad and every forward records a graph;
- every way the output leaves the call ends in a graph-free read: `.item()`, `.tolist()`, `.argmax()`,
  `int()`/`float()`, a distribution's `.sample()`; on the way only ops that keep the value a tensor
  (`.squeeze()`, `softmax`, indexing) or a local name whose every read is such a way;
- the forward runs per iteration of a loop and not under `no_grad`, and is not written inside a loop
  whose own body back-propagates (a check on the batch in a training step is the periodic-check route's).
A loop the evaluation route reports already is left to it (the rule skips a forward inside a finding)."""

from __future__ import annotations

from typing import Callable, Iterator

import libcst as cst

from ..facts import Facts
from ._support import grad_disabled, steps_itself

# Reads that leave a Python value or an integer index (`.detach()` keeps a float tensor for more
# compute: a GAN's `G(z).detach()` is the untrained-network route's question, not this one's).
_END_METHODS = frozenset({"item", "tolist", "argmax", "argmin", "argsort"})
_KEEP_METHODS = frozenset({"squeeze", "unsqueeze", "view", "reshape", "flatten", "softmax", "log_softmax", "sigmoid",
                           "tanh", "max", "min", "mean", "sum", "cpu", "to", "float", "double", "clone", "contiguous",
                           "exp", "abs", "add", "mul", "div", "sub", "t"})
_END_FUNCTIONS = frozenset({"builtins.int", "builtins.float", "builtins.bool", "torch.argmax", "torch.argmin",
                            "torch.argsort"})
_KEEP_FUNCTIONS = frozenset({"torch.softmax", "torch.log_softmax", "torch.sigmoid", "torch.tanh", "torch.squeeze",
                             "torch.max", "torch.min", "torch.nn.functional.softmax", "torch.nn.functional.log_softmax",
                             "torch.nn.functional.sigmoid"})
_DEPTH = 4


def acting_forwards(facts: Facts, model_call: Callable[[cst.Call], bool]) -> Iterator[tuple[cst.Call, str]]:
    """Each trained network's forward (`model_call`) whose output ends only in graph-free reads, with
    the read that ends it (`.item()`, `.sample()`), run per iteration of a loop."""
    for call in facts.calls_in(facts.module):
        if not model_call(call) or not _callee_is_module_spelling(call):
            continue
        loop = facts.iteration_loop(call)
        if loop is None or grad_disabled(facts, call) or not _optimised_object(facts, call.func):
            continue
        if any(steps_itself(facts, around.node.body) for around in facts.enclosing_loops(call)[:1]):
            continue  # a second forward written in a training step (a check on the batch): another question
        end = _graph_free(facts, call, _DEPTH, distribution=False)
        if end:
            yield call, end


def _callee_is_module_spelling(call: cst.Call) -> bool:
    """`self.model(s)`, `q_net(s)`: a call of an object (a name or `self.<attr>`), not of a method."""
    func = call.func
    return isinstance(func, cst.Name) or isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
        and func.value.value == "self"


def _optimised_object(facts: Facts, func: cst.BaseExpression) -> bool:
    """The object called is handed to a `torch.optim` optimizer in this unit (`Adam(self.model.parameters())`)."""
    spelled = facts.code(func)
    for call in facts.calls_in(facts.module):
        if not (facts.qualified_name(call.func) or "").startswith("torch.optim."):
            continue
        for node in facts.walk(call):
            if isinstance(node, (cst.Name, cst.Attribute)) and node is not call.func and facts.code(node) == spelled:
                return True
    return False


def _graph_free(facts: Facts, expr: cst.BaseExpression, depth: int, distribution: bool) -> str:
    """The graph-free read every use of `expr`'s value ends in ('' when some use may keep a graph)."""
    if depth < 0:
        return ""
    parent = facts.parent(expr)
    if isinstance(parent, cst.Attribute) and parent.value is expr:
        method = parent.attr.value
        outer = facts.parent(parent)
        if not (isinstance(outer, cst.Call) and outer.func is parent):
            return _graph_free(facts, parent, depth - 1, False) if distribution and method in ("probs", "logits") else ""
        if method in _END_METHODS and not distribution or distribution and method == "sample":
            return f".{method}()"
        if distribution and method in ("log_prob", "entropy", "cdf"):
            return _graph_free(facts, outer, depth - 1, False)  # a tensor with the network's graph again
        if method in _KEEP_METHODS and not distribution:
            return _graph_free(facts, outer, depth - 1, False)
        return ""
    if isinstance(parent, cst.Subscript) and parent.value is expr and not distribution:
        return _graph_free(facts, parent, depth - 1, False)
    if isinstance(parent, cst.Arg) and parent.value is expr and parent.keyword is None or \
            isinstance(parent, cst.Arg) and parent.value is expr and parent.keyword is not None \
            and parent.keyword.value in ("logits", "probs"):
        call = facts.parent(parent)
        if not isinstance(call, cst.Call) or distribution:
            return ""
        qualified = facts.qualified_name(call.func) or ""
        if qualified in _END_FUNCTIONS:
            return f"{qualified.rsplit('.', 1)[-1]}()"
        if qualified in _KEEP_FUNCTIONS:
            return _graph_free(facts, call, depth - 1, False)
        if qualified.startswith("torch.distributions.") and qualified.rsplit(".", 1)[-1][:1].isupper():
            return _graph_free(facts, call, depth - 1, True)
        return ""
    if isinstance(parent, cst.Assign) and parent.value is expr and len(parent.targets) == 1 \
            and isinstance(parent.targets[0].target, cst.Name):
        return _name_graph_free(facts, parent, parent.targets[0].target.value, depth - 1, distribution)
    return ""


def _name_graph_free(facts: Facts, assign: cst.Assign, name: str, depth: int, distribution: bool) -> str:
    """`act_values = self.model(state)`: every read of the local `act_values` is graph-free."""
    scope = facts.enclosing_function(assign)
    if scope is None and facts.later:
        return ""  # a notebook's global: a later cell may read it
    reads = [u for u in facts.uses(name) if facts.enclosing_function(u) is scope and not facts.contains(assign, u)]
    if scope is not None and any(isinstance(n, (cst.Global, cst.Nonlocal)) and any(a.name.value == name for a in n.names)
                                 for n in facts.walk(scope.body)):
        return ""
    if scope is None and any(facts.enclosing_function(u) is not None for u in facts.uses(name)):
        return ""
    ends = []
    for use in reads:
        parent = facts.parent(use)
        if isinstance(parent, (cst.AssignTarget, cst.For)) or isinstance(parent, cst.Attribute) and parent.attr is use \
                or isinstance(parent, cst.Arg) and parent.keyword is use:
            continue  # a rebinding (its value is read the same way), `obj.<name>`, a keyword's name
        end = _graph_free(facts, use, depth, distribution)
        if not end:
            return ""
        ends.append(end)
    return ends[0] if ends else ""

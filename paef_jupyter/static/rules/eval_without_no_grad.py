"""An evaluation loop that records autograd graphs nobody will use."""

from __future__ import annotations

import re
from typing import Callable, Iterable

import libcst as cst

from ...model import Edit, Fix, Severity
from ..facts import (Facts, FunctionNode, Loop, binds_locally, evaluates_model, global_weights, same_object, forward_variant, forwards_a_model, loss_module, may_train,
                     module_methods, param_names,
                     runs_functional_model, runs_inference_verb, switched_to_eval, trains_visibly)
from ..types import Kind
from ..names import block_statements, bound_names, mutated_names, named_params, positional_params, root_name, writes_of
from ._eval_comprehension import comprehension_passes
from ._eval_section import evaluation_functions, evaluation_sections, held_out_checks
from ._held_out_pass import held_out_passes
from ._phase_loop import PhasePass, phase_passes
from ._acting_forward import acting_forwards
from ._graph_uses import GraphUses, model_text
from ._grad_only_code import fast_path_classes, reached_units, saved_tensor_hooks
from ._flag_gated import GatedPass, excluded_by_call, gated_passes
from ._data_only import data_only_products
from ._host_logging import host_keeping_calls
from ._frozen_forward import frozen_forwards
from ._untrained_forward import UntrainedForward, statement_graph_free, untrained_forwards
from ._support import (grad_disabled, graph_calls, graph_derived, graph_names, hot_loop, is_grad_off_call, is_self_attr, opaque_call,
                       text_sinks, torch_alias)
from ._tensor_facts import (_bound_at_top, hook_code_out_of_reach, hook_registered_out_of_name, namespace_reader, optimised,
                            rarely_runs)
from ._importers import project_iteration_needing_grad, project_model_code_needing_grad, rebound_by_importers
from .base import Rule

_NEEDS_GRAD_METHODS = frozenset({"backward", "requires_grad_", "retain_grad", "register_hook"})
_BACKWARD_FUNCTIONS = frozenset({"torch.autograd.grad", "torch.autograd.backward"})
_GRAPH_STATE = frozenset({"requires_grad", "grad_fn", "is_leaf"})  # attributes that show whether a graph was recorded
_NEEDS_GRAD_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward", "torch.enable_grad", "torch.func.grad"})
# Module hooks: code that runs on every forward pass (or backward) without a call in the loop showing it.
_MODULE_HOOKS = frozenset({"register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
                           "register_backward_hook", "register_full_backward_pre_hook"})
_GLOBAL_HOOKS = frozenset({"torch.nn.modules.module.register_module_forward_hook",
                           "torch.nn.modules.module.register_module_forward_pre_hook"})
# Calls that read the grad mode itself: code that makes them behaves differently under no_grad.
# Decorators that hand back what the function returns without using it.
_RESULT_KEEPING_DECORATORS = frozenset({"staticmethod", "classmethod", "property", "builtins.staticmethod",
                                        "builtins.classmethod", "builtins.property", "functools.lru_cache",
                                        "functools.cache", "torch.no_grad", "torch.inference_mode"})
# Calls that write their argument out whole, `requires_grad` included: who loads it sees the flag
# (a cache of embeddings printed by a later cell shows `grad_fn=<...>` on every slice, red team 32a).
_SERIALIZERS = frozenset({"torch.save", "pickle.dump", "pickle.dumps", "joblib.dump", "dill.dump", "dill.dumps"})
# Functions storing an argument into their first one (as `list.append` does into its receiver).
_STORING_FUNCTIONS = frozenset({"builtins.setattr", "operator.setitem", "heapq.heappush", "heapq.heappushpop",
                                "heapq.heapreplace", "bisect.insort", "bisect.insort_left", "bisect.insort_right"})
_GRAD_MODE_QUERIES = frozenset({"torch.is_grad_enabled", "torch.is_inference_mode_enabled"})
_MODEL_WORDS = frozenset({
    "model", "net", "encoder", "decoder", "policy", "critic", "actor", "classifier", "generator", "discriminator",
    "resnet", "unet", "convnet", "qnet", "mlp", "cnn", "rnn", "lstm", "gru", "transformer", "vae", "gan", "bert",
    "gpt", "vit", "backbone", "head", "network",
})
# Methods that store their arguments into the receiver (a list of losses, a dict of outputs).
_STORING_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "push", "put"})
# What these give carries no autograd graph: a value that reaches `backward()` only through them
# (evaluation scores that pick which samples the next round trains on) cannot carry gradients.
# (The layers with a grad-off fast path: `_fast_path`.)
# Where a model's architecture comes from code this analysis never reads.
_MODEL_SOURCES = tuple(f"{m}." for m in (
    "transformers", "timm", "open_clip", "clip", "sentence_transformers", "diffusers", "peft",
    "segmentation_models_pytorch", "ultralytics", "torchvision.models", "torchaudio.models", "torchaudio.pipelines",
    "torchtext.models", "torch.hub.load", "torch.jit.load", "torch.export.load", "torch.package",
))
_EVAL_NAME = re.compile(r"(?i)(eval|valid|val_|^val|test|predict|infer|score|accuracy|metric)")
_STRINGS = (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)



# A loop after `.eval()` or under an evaluation name is an evaluation pass. One without either
# is not known to evaluate: inside a loop that trains (an RL agent's acting loop between updates,
# `for t in range(T_horizon): prob = model.pi(s)`) it is a rollout whose model outputs leave as
# Python numbers or samples, the cost autograd's bookkeeping per op (small for the small policy
# networks such loops run: low severity); elsewhere it is an inference loop, whose kept outputs
# hold their graphs (the evaluation loop's cost, medium) without being called an evaluation.
_EVALUATION_MESSAGE = ("this evaluation loop runs the model with autograd on: every forward pass records a graph "
                       "and keeps its activations alive for a backward pass that never comes (time per op and "
                       "memory); wrap it in `with torch.no_grad():`")
_ROLLOUT_MESSAGE = ("this loop runs the model with autograd on between training updates (an acting or rollout "
                    "loop), and nothing it computes reaches a backward: each forward pass records a graph no "
                    "backward uses (autograd's bookkeeping per op, small for a small model); wrap the model calls "
                    "in `with torch.no_grad():`")
_UNMARKED_MESSAGE = ("this loop runs the model with autograd on, and nothing it computes reaches a backward: every "
                     "forward pass records a graph and keeps its activations alive while its outputs are held, for "
                     "a backward pass that never comes (time per op and memory); wrap it in `with torch.no_grad():`")
# The same loop where callers (or later cells) this unit cannot see may back-propagate what it builds
# (red team 57: a full-batch objective summed by a helper of a local module, returned to an importer's
# LBFGS closure): "nothing reaches a backward" is then not proved, only not seen.
_UNSEEN_CALLERS_MESSAGE = ("this loop runs the model with autograd on, and this file shows no backward of what it "
                           "computes, but code outside it may take one (a caller of its function in another module, "
                           "a later cell): if none does, every forward pass records a graph and keeps its "
                           "activations alive for a backward pass that never comes (time per op and memory); wrap it "
                           "in `with torch.no_grad():`")


# Calls whose result keeps no graph of their input: a function using one may hand on data only.
_GRAPH_DROPPING_METHODS = frozenset({"detach", "detach_", "item", "numpy", "tolist", "cpu"})


class EvalWithoutNoGrad(Rule):
    id = "eval-without-no-grad"
    title = "Evaluation loop without torch.no_grad()"
    severity = Severity.MEDIUM
    explanation = (
        "Outside `torch.no_grad()` every forward pass records an autograd graph: each op saves its "
        "inputs for a backward pass that never comes. That costs time per op and keeps every "
        "intermediate activation alive until the outputs are freed (often several times the memory "
        "of the forward pass alone). `model.eval()` does not turn this off; `torch.no_grad()` does, "
        "with identical results."
    )

    def visit_Module(self, node: cst.Module) -> None:
        self._reached_units: list[Facts] | None = None
        self._returning: dict[FunctionNode, set[FunctionNode]] = {}
        for loop in self.facts.loops:
            if loop.kind == "eval" and (loop.parent is None or loop.parent.kind != "eval"):
                self._check(loop)
            for stmt, model in frozen_forwards(self.facts, loop):
                self._frozen(stmt, model)
        seen: set[int] = set()
        for stmt, section in evaluation_sections(self.facts, self._model_call):
            self._section(stmt, section)
            seen.update(id(s) for s in section)
        for stmt, block in held_out_checks(self.facts, self._model_call):
            self._held_out(stmt, block)
        for stmt, block in held_out_passes(self.facts, self._model_call):
            if not seen & {id(s) for s in block}:  # a pass after `.eval()` is the section's finding
                self._held_out_pass(stmt, block)
        for func, stmt, section in evaluation_functions(self.facts, self._model_call):
            self._evaluation_function(func, stmt, section)
        for gated in gated_passes(self.facts):
            self._gated_pass(gated)
        for stmt in comprehension_passes(self.facts, self._model_call):
            self._comprehension(stmt)
        for found in phase_passes(self.facts, self._model_call):
            self._phase(found)
        for forward, end in acting_forwards(self.facts, self._model_call):
            self._acting(forward, end)

    def leave_Module(self, original_node: cst.Module) -> None:
        """After the other routes (whose findings at the same place stand): a network no optimizer
        trains, run on graph-free inputs in a training step (`_untrained_forward`)."""
        found = list(untrained_forwards(self.facts))
        if found and any(_grad_asking_forward(u) for u in (self.facts, *self.facts.prior.cells, *self.facts.later)):
            return  # a forward that asks for autograd (an energy model's `autograd.grad`) needs the graph
        for each in found:
            self._untrained(each)

    def _untrained(self, found: UntrainedForward) -> None:
        torch = torch_alias(self.facts) or "torch"
        model, stmt = found.model, found.stmt
        cost = "only for `.detach()` to drop it" if found.detached else \
            f"and, where its output is not detached, `backward()` also runs through it, filling `.grad` of `{model}`'s " \
            "parameters, which nothing reads"
        message = (f"`{model}` is trained by no optimizer of this program and its inputs carry no graph from a trained "
                   "one, yet its "
                   f"forward in this training step records an autograd graph every step (memory for its activations "
                   f"and time per op) {cost}; run it under `with {torch}.no_grad():`")
        description = f"run `{model}`'s forward under `{torch}.no_grad()` (same values, no graph)"
        review = (f"the statement's other values lose their graph too, and `{model}`'s parameters no longer get "
                  "`.grad` from this step: check that nothing reads them")
        if statement_graph_free(self.facts, [self.facts, *self.facts.later, *self.facts.prior.cells], stmt, found.call):
            self._report_wrap_for_review(stmt, torch, message, description, review)
        else:
            self.report(stmt, message, fix=Fix(description=description, suggestion=self._suggestion(stmt, torch),
                                               safe=False))

    def visit_Call(self, node: cst.Call) -> None:
        """`next_q = target_net(next_states).detach()` on every training step (a DQN's target
        network, a teacher's logits): the forward records a graph that `.detach()` drops at once.
        A hint: a module whose forward keeps its activations for later (a hook, an attribute)
        would keep them without a graph under `no_grad`."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "detach" and not node.args):
            return
        forward = func.value if isinstance(func.value, cst.Call) else self._forward_just_before(node)
        if not (isinstance(forward, cst.Call) and self._model_call(forward)):
            return
        model = forward.func
        if isinstance(model, cst.Name):
            if self._trained(model.value):
                return
        elif not (isinstance(model, cst.Attribute) and isinstance(model.value, cst.Name) and model.value.value == "self"
                  and self._untrained_attribute(model)):
            return
        stmt = self.facts.statement_of(node)
        loop = hot_loop(self.facts, node)
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 \
                or not isinstance(stmt.body[0], cst.Assign) or loop is None or loop.kind != "train" \
                or rarely_runs(self.facts, node, loop) or grad_disabled(self.facts, node) \
                or self._regrads(node, stmt):
            return
        if forward is not func.value:
            stmt = self.facts.statement_of(forward)  # the forward's own line: that is what runs with the graph
        torch = torch_alias(self.facts) or "torch"
        code = self.facts.code(forward)
        self.report(
            stmt,
            f"`{code}` records an autograd graph on every training step only for `.detach()` to drop it "
            f"(time per op); run it under `with {torch}.no_grad():`",
            fix=Fix(description=f"run the forward under `{torch}.no_grad()` (same values, no graph)",
                    suggestion=self._suggestion(stmt, torch), safe=False),
        )

    def _forward_just_before(self, detach: cst.Call) -> cst.Call | None:
        """`out = teacher(x)` then, as the very next statement, `out = out.detach()`: the name is read
        nowhere in between, so the forward's graph is dropped as soon as it is built (the same as
        `teacher(x).detach()`). The forward, or None."""
        receiver = detach.func.value if isinstance(detach.func, cst.Attribute) else None
        stmt = self.facts.statement_of(detach)
        if not isinstance(receiver, cst.Name) or not _rebinds(stmt, receiver.value):
            return None
        body = block_statements(self.facts.parent(stmt))
        index = body.index(stmt) if stmt in body else 0
        before = body[index - 1] if index > 0 else None
        if not (isinstance(before, cst.SimpleStatementLine) and _rebinds(before, receiver.value)):
            return None
        value = before.body[0].value
        return value if isinstance(value, cst.Call) else None

    def _trained(self, model: str) -> bool:
        """Some optimizer, in this unit or an earlier cell, updates `model` (a GAN's generator run
        on noise and detached for the discriminator's step is trained by its own step)."""
        units = {id(f): f for f, _ in (*self.facts.prior._values.values(), *self.facts.prior.functions.values())}
        return any(optimised(f, model) for f in (self.facts, *units.values()))

    def _untrained_attribute(self, model: cst.Attribute) -> bool:
        """`self.target_net` of a plain class (a DQN agent, a distiller), every binding of which is a
        call that builds or copies a module, or an `__init__` parameter every construction fills with
        one (or with a name no optimizer here takes); no optimizer, `requires_grad` switch or `.grad`/
        `.data` use reaches `self.<attr>` anywhere in the unit. The attribute of an `nn.Module` may be
        trained through its owner's `parameters()`: not judged."""
        attr = model.attr.value
        cls = next((a for a in self.facts.ancestors(model) if isinstance(a, cst.ClassDef)), None)
        if cls is None or self.facts._kind_of_class(cls) is Kind.MODULE:
            return False
        bindings = self.facts._defs.get("self." + attr, ())
        values = [d.value for d in bindings]
        if not values or any(v is None for v in values):
            return False
        for value in values:
            made = self.facts.constructed_with(value) if isinstance(value, cst.Name) else [value]
            if not made or not all(isinstance(m, cst.Call) or isinstance(m, cst.Name) and not self._trained(m.value)
                                   for m in made):
                return False
        for node in self.facts.walk(self.facts.module):
            if not (isinstance(node, cst.Attribute) and node.attr.value == attr and isinstance(node.value, cst.Name)
                    and node.value.value == "self"):
                continue
            parent = self.facts.parent(node)
            if isinstance(parent, cst.Attribute) and parent.value is node \
                    and parent.attr.value in ("requires_grad_", "requires_grad", "data", "grad", "retain_grad"):
                return False
            if any(isinstance(a, cst.Call) and (self.facts.qualified_name(a.func) or "").startswith("torch.optim.")
                   for a in self.facts.ancestors(node)):
                return False
        return True

    def _regrads(self, detach: cst.Call, stmt: cst.SimpleStatementLine) -> bool:
        """`model(x).detach().requires_grad_()`: the detached result becomes a leaf that records again."""
        for anc in self.facts.ancestors(detach):
            if anc is stmt:
                return False
            if isinstance(anc, cst.Attribute) and anc.attr.value in _NEEDS_GRAD_METHODS | _GRAPH_STATE:
                return True
        return False

    def _gated_pass(self, gated: GatedPass) -> None:
        """Conv-TasNet's `val_loss = self._run_one_epoch(epoch, cross_valid=True)` after `.eval()`:
        the flag skips every training statement of the function's loop. The wrap goes around the
        call; it is for review, as the function runs for training too and may read grad mode."""
        loop, call = gated.gate.loop, gated.call
        stmt = self.facts.statement_of(call)
        if not isinstance(stmt, cst.SimpleStatementLine) or not self._runs_a_model(loop) \
                or any(c is not call and may_train(self.facts, c) for c in self.facts.calls_in(stmt)) \
                or loop.function in module_methods(self.facts) or self._forward_needs_grad(loop) \
                or _asks_for_grad(self.facts, loop.node.body, training_path=False):
            return
        torch = torch_alias(self.facts) or "torch"
        name = self.facts.code(call.func)
        flag = gated.gate.param
        line = self.facts.position(loop.node).start.line
        self._report_wrap_for_review(
            stmt, torch,
            f"`{name}` runs its loop (line {line}) with every backward and optimizer step turned off by "
            f"`{flag}`, {'which also puts the model in eval mode' if gated.switches else 'after `.eval()`'}: an evaluation pass, yet each forward records an autograd graph and keeps "
            f"its activations alive for a backward pass that never comes; run the call under `with {torch}.no_grad():`",
            f"run the call under `{torch}.no_grad()` (same outputs, without `requires_grad`)",
            f"`{name}` also trains (with another `{flag}`); under no_grad, any code it runs that needs "
            "gradients or reads grad mode on this pass would change"
            + (", and it calls code the analysis cannot see into" if gated.unseen else ""),
        )

    def _held_out(self, stmt: cst.SimpleStatementLine, block: list[cst.BaseStatement]) -> None:
        """MorvanZhou's `if step % 50 == 0: test_output = cnn(test_x)`: a hint, since the wrap
        moves statements whose values may be read after the loop."""
        self._wrap_hint(stmt, block, "this check runs the trained model on held-out data the loop never changes, only "
                        "to measure, yet it records an autograd graph and keeps its activations alive until its outputs "
                        "are freed; run the check", "the check's statements")

    def _held_out_pass(self, stmt: cst.SimpleStatementLine, block: list[cst.BaseStatement]) -> None:
        """A forecaster's `val_prediction = model(x_val)` after the step of every epoch, read only
        through `.item()` (public check 63, p05): a hint, as `_held_out`'s."""
        self._wrap_hint(stmt, block, "after the optimizer step, this forward runs the trained model on held-out data "
                        "the loop never changes, and its values are read only as numbers (`.item()`), yet it records "
                        "an autograd graph every iteration and keeps its activations alive until its outputs are "
                        "freed; run the validation statements", "the validation statements")

    def _evaluation_function(self, func: cst.FunctionDef, stmt: cst.SimpleStatementLine,
                             section: list[cst.BaseStatement]) -> None:
        """A GCN's `def test(model, x, y): model.eval(); out = model(x); return acc` called per
        epoch: a hint, like the inline section, unless the function or what it calls asks for
        gradients, or some call of it already runs under no_grad."""
        sites = self.facts.per_iteration_call_sites(func)
        if _reaches_grad(self.facts, func) or any(grad_disabled(owner, call) for owner, call in sites):
            return
        line = next((owner.position(call).start.line for owner, call in sites if owner is self.facts), None)
        # `if batch_idx % log_interval == 0: reconstruct_test_images()` (public check 32, p04): not
        # every iteration; the message says how often (noise51), the finding stays, as `_held_out`'s
        every = "every few training iterations (under a `%` test)" if sites and all(
            (loop := owner.iteration_loop(call)) is not None and rarely_runs(owner, call, loop) for owner, call in sites) \
            else "on every training iteration"
        called = f" called {every} (line {line})" if line is not None else f" called {every}"
        self._wrap_hint(stmt, section, f"`{func.name.value}`{called} puts the model in eval mode and runs it only to "
                        "measure (nothing it returns or keeps has a graph), yet the forward records an autograd graph "
                        "and keeps its activations alive until its outputs are freed; run the statements after "
                        "`.eval()`", "the statements after `.eval()`")

    def _section(self, stmt: cst.SimpleStatementLine, section: list[cst.BaseStatement]) -> None:
        """pygcn's `model.eval(); output = model(features, adj)` after the step: a hint, since the
        wrap moves statements that may bind names read after the loop."""
        self._wrap_hint(stmt, section, "after the optimizer step and `.eval()`, this forward pass only measures "
                        "(validation on the same step), yet it records an autograd graph and keeps its activations "
                        "alive until its outputs are freed; run the evaluation section", "the statements after `.eval()`")

    def _comprehension(self, stmt: cst.SimpleStatementLine) -> None:
        """`preds = torch.cat([model(x).argmax(1) for x, _ in test_loader])` after `.eval()`: a
        hint, as the forwards run inside an expression the analysis does not follow as a loop."""
        self._wrap_hint(stmt, [stmt], "this comprehension runs the model on every batch only to measure, yet each "
                        "forward records an autograd graph and keeps its activations alive until its outputs are "
                        "freed; run the statement", "the statement")

    def _phase(self, found: PhasePass) -> None:
        """pub65 p01: `if e == 'train': model.train() else: model.eval()`, then one batch loop whose
        forward serves both phases and back-propagates only under the same test. Report only: the
        statement also runs the training phase, so no `no_grad` can go around it; the guard is
        `torch.set_grad_enabled(<test>)` over the forward and the loss."""
        torch = torch_alias(self.facts) or "torch"
        line = self.facts.position(found.forward).start.line
        self.report(
            found.forward,
            f"in the phase where `{found.test}` is false this loop puts `{found.model}` in eval mode "
            f"(`{found.model}.eval()` at line {found.eval_line}) and runs this forward with autograd on, though "
            f"only the training phase back-propagates (under `if {found.test}:`): every evaluation batch "
            f"records a graph and keeps its activations alive for a backward pass that never comes; run the "
            f"forward and the loss under `with {torch}.set_grad_enabled({found.test}):`",
            fix=Fix(description=f"guard the forward (line {line}) and the loss with `with {torch}.set_grad_enabled("
                    f"{found.test}):` (the same values; graphs only in training)", safe=False),
        )

    def _acting(self, forward: cst.Call, end: str) -> None:
        """pub64 p03: a DQN's greedy action `int(torch.argmax(self.model(state)).item())` per environment
        step. A hint only: whether the module's forward keeps something for a later backward (an
        attribute, a hook) is not proved here, and the statement may do more than the forward."""
        stmt = self.facts.statement_of(forward)
        line = self.facts.position(stmt).start.line
        if any(f.line <= line <= f.end_line for f in self.findings):
            return  # a loop or section already reported around it
        func = self.facts.enclosing_function(forward)
        if func is not None and self._function_called_without_grad(func):
            return  # `accuracy(model, loader)` called only inside `with torch.no_grad():`
        if self._module_hooks() or self._saved_tensor_hooks() or self._grad_mode_read() or self._local_module_forwards():
            return  # the network's code may act otherwise under no_grad (a hook registering tensor hooks raises)
        loop = self.facts.iteration_loop(forward)
        if loop is not None and loop.facts is self.facts and (self._forward_needs_grad(loop) or self._cached_by_forward(loop)):
            return
        torch = torch_alias(self.facts) or "torch"
        code = self.facts.code(forward)
        self.report(
            stmt,
            f"`{code}` runs a trained network with autograd on, but its output reaches Python only through "
            f"`{end}` (an action or a number): the graph it records on every call is never back-propagated "
            f"(autograd's bookkeeping per op); run it under `with {torch}.no_grad():`",
            severity=Severity.LOW,
            fix=Fix(description=f"run the forward under `{torch}.no_grad()` (same values, no graph)",
                    suggestion=self._suggestion(stmt, torch), safe=False),
        )

    def _wrap_hint(self, stmt: cst.SimpleStatementLine, block: list[cst.BaseStatement], what: str, moved: str) -> None:
        torch = torch_alias(self.facts) or "torch"
        first = self.facts.position(block[0]).start.line
        last = self.facts.position(block[-1]).end.line
        lines = f"line {first}" if first == last else f"lines {first}-{last}"
        self.report(
            stmt,
            f"{what} ({lines}) under `{torch}.no_grad()`",
            fix=Fix(description=f"wrap {moved} in `with {torch}.no_grad():` (same values)",
                    suggestion=self._suggestion_of(block, torch), safe=False),
        )

    def _check(self, loop: Loop) -> None:
        if not self._runs_a_model(loop) or grad_disabled(self.facts, loop.node) or self._called_without_grad(loop) \
                or self._needs_grad(loop) or loop.function in module_methods(self.facts) or self._feeds_backward(loop) \
                or self._later_cell_backward(loop) or self._forward_needs_grad(loop) or self._importer_backward(loop):
            return
        if not self._evaluation_evidence(loop) and self._unrolls_a_recurrence(loop):
            return
        unseen_code = ""
        if may_train(self.facts, loop.node):
            # Only code the analysis cannot see into may train: after `.eval()` (or under an
            # evaluation name) the loop is still reported, its rewrite left to review.
            if trains_visibly(self.facts, loop.node) or not self._evaluation_evidence(loop) \
                    or self._unseen_model_method(loop) or self._zeroes_gradients(loop):
                return
            unseen_code = ("this loop calls code the analysis cannot see into (a method of an object of unknown "
                           "type, a function of another module): if any of it back-propagates or steps an "
                           "optimizer, no_grad would stop its gradients")
        torch = torch_alias(self.facts)
        suspends = any(isinstance(n, (cst.Yield, cst.Await)) for n in self.facts.walk(loop.node.body, into_scopes=False))
        edits = self._wrap(loop.node, torch or "torch")
        suggestion = self._suggestion(loop.node, torch or "torch")
        safe = torch is not None and not suspends  # a generator would leave grad off in its caller
        unseen = self._unseen_users(loop) or unseen_code or self._grad_mode_read() or self._shown_with_graph(loop) \
            or self._fast_path_modules() or self._module_hooks() or self._saved_tensor_hooks() \
            or self._cached_by_forward(loop) or self._local_module_forwards() or self._hand_memo(loop) \
            or self._memoised_call(loop) \
            or self._returned_through_decorator(loop) or self._read_by_name() or self._redefined_later(loop) \
            or self._given_model_may_need_grad(loop) or self._patched_with_grad_code() \
            or self._rebound_by_importer(loop) or self._functional_forward(loop) or self._host_logged(loop) \
            or self._unproved_use(loop) or self._given_iterable_may_need_grad(loop) \
            or self._given_model_built_out_of_sight(loop)
        evidence = self._evaluation_evidence(loop)
        rollout = not evidence and self._between_updates(loop)
        self.report(
            loop.node,
            (_EVALUATION_MESSAGE if evidence else _ROLLOUT_MESSAGE if rollout
             else _UNSEEN_CALLERS_MESSAGE if self._unseen_users(loop) else _UNMARKED_MESSAGE)
            + self._dropped_grad_switch(loop),
            severity=Severity.LOW if rollout else None,
            fix=Fix(
                description=(
                    "compute each item under `torch.no_grad()` before it is yielded: around the whole "
                    "loop of a generator, grad would also be off in the caller between items"
                ) if suspends else "run the loop under `torch.no_grad()` (same outputs, without `requires_grad`)",
                edits=edits if safe else (),
                suggestion=suggestion,
                safe=safe,
                review=unseen,
            ),
        )

    def _dropped_grad_switch(self, loop: Loop) -> str:
        """pub54 p03: `unet.eval(); torch.no_grad(); for ...: out = unet(x)`. A bare
        `torch.no_grad()` (or `torch.inference_mode()`) statement makes a context manager and drops
        it: autograd stays on, which is why the loop records graphs although the program meant to
        turn them off. Named in the message (the first such statement of the loop's scope before
        the loop); '' when there is none. (`torch.set_grad_enabled(False)` alone does switch the
        mode: not this.)"""
        scope = loop.function.body if loop.function is not None else self.facts.module
        start = self.facts.position(loop.node).start.line
        for node in self.facts.walk(scope, into_scopes=False):
            if not isinstance(node, cst.Expr) or not isinstance(node.value, cst.Call) or node.value.args:
                continue
            name = self.facts.qualified_name(node.value.func) or ""
            line = self.facts.position(node).start.line
            if name in ("torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad",
                        "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode") and line < start:
                code = self.facts.code(node.value)
                return (f" (the bare `{code}` at line {line} makes a context manager and drops it: autograd stays "
                        f"on; only `with {code}:` turns it off)")
        return ""

    def _between_updates(self, loop: Loop) -> bool:
        """A loop inside a loop that visibly trains (`while not done: for t in range(T): prob =
        model.pi(s) ...; model.train_net()`): the acting loop of an agent between its updates,
        not an evaluation pass."""
        outer = loop.parent
        while outer is not None:
            if trains_visibly(self.facts, outer.node):
                return True
            outer = outer.parent
        return False

    def _functional_forward(self, loop: Loop) -> str:
        """Why the rewrite is left to review when the loop runs a network only as a method of
        weights it is handed (`net.manual_forward(x, fast)`, MAML; `runs_functional_model`): the
        method was found by its name through the call graph, not by the object's type. A
        function called by its own name (d2l's `rnn(X, state, params)`) is not this."""
        for call in self.facts.calls_in(loop.node.body):
            func = self.facts._function_at(call.func)
            if isinstance(func, cst.FunctionDef) and runs_functional_model(self.facts, call):
                kept = sorted(global_weights(self.facts.owner_of(func), func))
                if kept:  # misses63: the weights are module-level names, not arguments this loop hands over
                    return (f"the network `{func.name.value}` runs on trained weights kept in module-level names "
                            f"({', '.join(f'`{k}`' for k in kept)}), which the training loop steps too: that no output "
                            "of this pass is back-propagated is read from the code, not proved for a network whose "
                            "weights any code can reach")
        calls = [c for c in self.facts.calls_in(loop.node.body) if runs_functional_model(self.facts, c)
                 and self.facts._function_at(c.func) is None]  # (`rnn(X, state, params)`, a function by name: proved)
        if not calls or any(self._model_call(c) and not runs_functional_model(self.facts, c)
                            for c in self.facts.calls_in(loop.node.body)):
            return ""
        return (f"the network runs as a function of the weights it is handed (`{self.facts.code(calls[0].func)}(...)`), "
                f"a method found by its name: an object of another class with a method of that name would run code this did not read")

    def _host_logged(self, loop: Loop) -> str:
        """Why the rewrite is left to review when the loop was found not to feed a backward only
        because calls of the program's methods that change their objects were proved to keep host
        values there (`_host_logging`, a Lightning-style `module.validation_step(batch, i)` logging
        `.item()` floats): that proof follows the call graph by method name, so an object of
        another class with a same-named method would run code this did not read. '' otherwise."""
        skipped = host_keeping_calls(self.facts, loop)
        if not skipped:
            return ""
        kept = self.facts.mutated_in_loop(loop, attribute_owners=False) - self.facts.mutated_in_loop_skipping(loop, skipped) \
            - set(loop.writes)
        if not kept or not self._feeds_backward(loop, skip_host_keeping=False):
            return ""  # proved without that proof
        call = min(skipped, key=self.facts.order)
        return (f"this loop changes {', '.join(f'`{n}`' for n in sorted(kept))} only through calls such as "
                f"`{self.facts.code(call.func)}(...)` that were read to keep numbers or text there (found by method "
                f"name): if the object is of another class, what it keeps may reach a later backward")

    def _unproved_use(self, loop: Loop) -> str:
        """The closed-world gate (`_graph_uses`): why some use of what the loop computes with the
        model is not proved to read the same with and without autograd ('' when every use is)."""
        why = GraphUses(self.facts, self._model_call, self._in_cell).first_unproved(loop.node.body, loop.node)
        return f"{why}: under no_grad it gets the same numbers without `grad_fn`" if why else model_text(self._reached())

    def _in_cell(self, unit: Facts) -> bool:
        """`unit` is a notebook cell (its last expression is shown in `Out[]`)."""
        if unit is self.facts:
            return self.ctx.ref.cell is not None
        return any(unit is u for u in (*self.facts.later, *self.facts.prior.cells))

    def _redefined_later(self, loop: Loop) -> str:
        """Why a later cell may change what this loop runs ('' if none): the loop is in a function
        (called again after later cells ran) and calls, itself or through the functions it calls, a
        name that a later cell defines again with a body that back-propagates or asks for autograd
        (`def metric(out, y): ... loss.backward()`), or binds to other code (a lambda, an import)."""
        if loop.function is None or not self.facts.later:
            return ""
        names: set[str] = set()
        bodies: list[tuple[Facts, cst.CSTNode]] = [(self.facts, loop.node.body)]
        seen: set[int] = set()
        while bodies:
            owner, body = bodies.pop()
            for call in owner.calls_in(body):
                if isinstance(call.func, cst.Name):
                    names.add(call.func.value)
                for func in owner._callees(call):
                    if id(func) not in seen and len(seen) < 50:
                        seen.add(id(func))
                        bodies.append((owner.owner_of(func), func.body))
        for later in self.facts.later:
            for name in sorted(names):
                func = later.functions.get(name)
                if func is not None and _reaches_grad(later, func) or func is None and name in _bound_at_top(later):
                    return (f"a later cell defines `{name}` again, which this loop calls when its function runs "
                            "after that cell: the new code needs gradients, which no_grad would turn off")
        return ""

    def _rebound_by_importer(self, loop: Loop) -> str:
        """Why a global this loop reads may hold other code when it runs ('' if none seen): in a
        module fixed on its own, a project file importing it rebinds the global (`ev.model =
        SlopeNet()`, red team 30b: the wrap read `model = Net()` of the module, the program ran the
        importer's model, whose forward asks for gradients)."""
        if self.ctx.ref.cell is not None:
            return ""
        func = loop.function
        names = {n.value for n in self.facts.walk(loop.node) if isinstance(n, cst.Name)}
        if func is not None:
            names = {n for n in names if not binds_locally(func, n)}
        return rebound_by_importers(self.ctx.ref.path, names)

    def _patched_with_grad_code(self) -> str:
        """Why code this loop runs may have been replaced by code needing autograd ('' if none):
        this unit, an earlier or later cell, or a local module it reaches binds an attribute to a
        function asking for gradients (`Net.forward = forward_with_slope`, red team 29b): the
        analysis reads the class's own `forward`, the program runs the patched one."""
        units = [self.facts, *self.facts.prior.cells, *self.facts.later, *self._reached()]
        for unit in {id(u): u for u in units}.values():
            patched = _grad_asking_patch(unit)
            if patched:
                return (f"`{patched}` is set to code that needs gradients (a method or a model's forward replaced): "
                        "this loop may run it, and no_grad would turn them off")
        return ""

    def _given_model_may_need_grad(self, loop: Loop) -> str:
        """Why a model the loop's function is handed may need autograd ('' if none): the loop
        calls an object its callers pass (`net(x)`), and a class of this unit, an earlier or later
        cell, or a local module it reaches has a forward that asks for gradients (red team 29b: a
        later cell handing an energy model, whose forward differentiates its output, to an
        evaluation helper checked only against the models its callers in sight passed)."""
        given = _given_objects_called(self.facts, loop)
        if not given:
            return ""
        units = [self.facts, *self.facts.prior.units(), *self.facts.later, *self._reached()]
        seen: set[int] = set()
        for unit in units:
            if id(unit) in seen:
                continue
            seen.add(id(unit))
            forward = _grad_asking_forward(unit)
            if forward:
                return (f"this loop calls `{given}`, which its function is handed, and `{forward}` needs "
                        "gradients: a caller handing such a model to it (a later cell's, one out of sight) would "
                        "make the loop raise or compute something else under no_grad")
        return ""

    def _given_iterable_may_need_grad(self, loop: Loop) -> str:
        """Why the batches the loop draws may come from code needing autograd ('' if none seen): the
        loop iterates a value its function is handed (`for x, y in batches:` with `batches` a
        parameter, `self.loader`), and each `next()` runs, inside the loop and so under the no_grad,
        whatever iterable a caller passes. Red team 47: a robust evaluation handed the helper a
        generator crafting FGSM inputs with `torch.autograd.grad` (it raised under no_grad), and a
        test-time-adaptation generator stepping an optimizer. Iteration code in sight (a generator
        function, a class's `__iter__` / `__next__` / `__getitem__`, a `collate_fn`) of this unit, its
        earlier and later cells, the local modules it reaches and, for a module fixed on its own, the
        files of its project, that back-propagates or asks for autograd, may be what is passed."""
        func = loop.function
        if not isinstance(func, cst.FunctionDef) or not isinstance(loop.node, cst.For):
            return ""
        params = named_params(func.params)
        params |= {p.name.value for p in (func.params.star_arg, func.params.star_kwarg) if isinstance(p, cst.Param)}
        handed = sorted({n.value for n in self.facts.walk(loop.node.iter) if isinstance(n, cst.Name)} & params)
        if not handed:
            return ""
        units = [self.facts, *self.facts.prior.units(), *self.facts.later, *self._reached()]
        found = next((f for u in {id(u): u for u in units}.values() if (f := _grad_asking_iteration(u))), "")
        if not found and self.ctx.ref.cell is None:
            found = project_iteration_needing_grad(self.ctx.ref.path)
        if not found:
            return ""
        return (f"this loop iterates `{handed[0]}`, which its function is handed, and `{found}` is iteration code "
                "(a generator, `__iter__`, `__getitem__`, a collate function) that needs gradients: each batch "
                "it makes would be made under no_grad, where it raises or computes something else")

    def _given_model_built_out_of_sight(self, loop: Loop) -> str:
        """Why a model the loop's function is handed may compute something else under no_grad ('' if
        nothing says so): in a module fixed on its own, the callers that build the model and hand it
        over are other files of its project, and one of them (or code they call) registers a forward
        hook keeping the outputs, builds a fast-path layer, or defines a forward reading the grad mode
        (red team 48: `evaluate.py` rewritten while `main.py` hooked the model it hands it)."""
        if self.ctx.ref.cell is not None or not _given_objects_called(self.facts, loop):
            return ""
        found = project_model_code_needing_grad(self.ctx.ref.path)
        if not found:
            return ""
        return (f"this loop calls `{_given_objects_called(self.facts, loop)}`, which its function is handed by "
                f"callers out of sight, and {found}: that model's forward (a hook keeping its outputs, a fast-path "
                "kernel, a grad-mode read) may compute or keep something else under no_grad")

    def _frozen(self, stmt: cst.SimpleStatementLine, model: str) -> None:
        """A frozen model's forward in a training loop: only its `.grad` tells the rewrite apart,
        and nothing here shows no later code reads it (a teacher trained again afterwards)."""
        torch = torch_alias(self.facts) or "torch"
        self._report_wrap_for_review(
            stmt, torch,
            f"`{model}` is in eval mode and no optimizer of this training loop updates it, yet its forward "
            "pass on the batch records an autograd graph: its activations stay alive until `backward()`, "
            f"which then computes gradients for `{model}`'s parameters that nothing uses; run it under "
            f"`with {torch}.no_grad():`",
            f"run `{model}`'s forward under `{torch}.no_grad()` (same outputs)",
            f"`{model}.parameters()` no longer receive gradients from this loop's `backward()`: "
            f"if later code reads `{model}`'s `.grad` or steps an optimizer over it, its results change",
        )

    def _runs_a_model(self, loop: Loop) -> bool:
        """A call of an `nn.Module` (by type), of `.forward`, of a name whose words say model
        (`model`, `net`, `resnet`, `policy_net`; not `_kineto_step`), or of a helper that runs
        the model it is given."""
        return any(isinstance(n, cst.Call) and self._model_call(n) for n in self.facts.walk(loop.node.body))

    def _model_call(self, n: cst.Call) -> bool:
        if self._runs_without_grad(n):
            return False
        func = n.func
        if (isinstance(func, cst.Attribute) and forward_variant(func.attr.value)) or forwards_a_model(self.facts, n) \
                or runs_inference_verb(self.facts, n):  # `model.predict(x)`, `recmodel.getUsersRating(u)`
            return True
        if any(evaluates_model(self.facts, callee) for callee in self.facts._callees(n)):
            return True  # `engine.eval(x, y)`: a trainer's method that puts its model in `.eval()` and runs it
        if runs_functional_model(self.facts, n):
            return True  # `net.manual_forward(x, fast_weights)`: the network written as a function of trained weights
        own = isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"
        if isinstance(func, cst.Name) or own:
            spelled = func.value if isinstance(func, cst.Name) else func.attr.value  # type: ignore[union-attr]
            words = [w for w in re.split(r"[_\d]+", spelled.lower()) if w]
            return any(w in _MODEL_WORDS or w.endswith("model") for w in words) \
                or (self.facts.kind(func) is Kind.MODULE and not (isinstance(func, cst.Name) and loss_module(self.facts, func))) \
                or switched_to_eval(self.facts, n)
        return False

    def _runs_without_grad(self, call: cst.Call) -> bool:
        """`beam_search(encoder, decoder, src)` whose every call runs under `no_grad` (a decorator,
        or a `with torch.no_grad():` around them): whatever model it runs records no graph."""
        callees = self.facts._callees(call)
        if not callees:
            return False
        for callee in callees:
            owner = self.facts.owner_of(callee)
            calls = owner.calls_in(callee.body)
            if calls and all(grad_disabled(owner, c) for c in calls):
                continue
            # the branch the call's constant flag selects runs its model under no_grad, beside
            # plumbing, and reads nothing of `self` (parameters) with autograd on
            reached = [c for c in calls if not excluded_by_call(owner, c, call, callee)]
            if not any(grad_disabled(owner, c) for c in reached) \
                    or not all(grad_disabled(owner, c) or _plumbing(owner, c) for c in reached) \
                    or any(isinstance(n, cst.Name) and n.value == "self" and not grad_disabled(owner, n)
                           and not excluded_by_call(owner, n, call, callee) for n in owner.walk(callee.body)):
                return False
        return True

    # --- does the loop need autograd? ------------------------------------------------------

    def _called_without_grad(self, loop: Loop) -> bool:
        """The loop's function is only ever called under `no_grad` (`with torch.no_grad(): evaluate()`),
        in this unit and in every other unit seen calling it (a script's `with torch.no_grad():
        auc = dl.evaluate(model, device)` for a local module's `evaluate`): every call there counts,
        inside loops or not."""
        return loop.function is not None and self._function_called_without_grad(loop.function)

    def _function_called_without_grad(self, func: FunctionNode) -> bool:
        """Every call of `func` seen (this unit's by name, other units' that call it per iteration) runs
        under `no_grad`."""
        name = func.name.value
        sites = [(self.facts, c) for c in self.facts.calls_in(self.facts.module)
                 if isinstance(c.func, (cst.Name, cst.Attribute)) and (c.func.value if isinstance(c.func, cst.Name) else c.func.attr.value) == name]
        callers = {id(owner): owner for owner, _ in self.facts.per_iteration_call_sites(func) if owner is not self.facts}
        for owner in callers.values():
            sites += [(owner, c) for c in owner.calls_in(owner.module) if func in owner._callees(c)]
        return bool(sites) and all(grad_disabled(owner, c) for owner, c in sites)

    def _needs_grad(self, loop: Loop) -> bool:
        return _turns_grad_off(self.facts, loop.node.body) or self._callee_turns_grad_off(loop) \
            or _asks_for_grad(self.facts, loop.node.body)  # (a `with no_grad`: the user already chose where)

    def _callee_turns_grad_off(self, loop: Loop) -> bool:
        """The loop runs a function of this unit that puts its own loop under `with
        torch.no_grad():` (the federated homework's `test(model, ...)`, its batches under it, one
        probe forward after): the user already chose where gradients are off."""
        for call in self.facts.calls_in(loop.node.body):
            for callee in self.facts._callees(call):
                owner = self.facts.owner_of(callee)
                if any(_grad_off_with(owner, n) and any(isinstance(m, (cst.For, cst.While)) for m in owner.walk(n.body))
                       for n in owner.walk(callee.body)):
                    return True
        return False

    def _forward_needs_grad(self, loop: Loop) -> bool:
        """Code the loop runs that no call in it shows asks for autograd: a model's `forward` (of
        this cell or an earlier one) or a function this loop calls keeps an activation's
        gradient (`retain_grad()`), registers a tensor hook, differentiates (`torch.autograd.grad`,
        a physics-informed residual) or reads whether a graph is recorded: under no_grad it
        raises or computes something else."""
        for func, runs_in in self.facts.per_iteration_functions.items():
            forward = isinstance(func, cst.FunctionDef) and func.name.value == "forward"
            # (a helper's `backward()` and `.grad` reads are the training path, which `_feeds_backward`
            # follows with its conditions: `loss_batch(model, xb, yb, opt=None)` steps only given `opt`)
            if (forward or runs_in.node is loop.node) \
                    and _asks_for_grad(self.facts.owner_of(func), func.body, training_path=forward):
                return True
        return False

    def _module_hooks(self) -> str:
        """Why hooks may make the loop's outputs reach autograd ('' if none is registered here,
        in an earlier cell, or in the local module of a class they name (red team 21: a model
        registering a hook on its own layer in `__init__`)): a forward hook gets every output (a list it fills may be
        back-propagated later, it may register tensor hooks that raise under no_grad)."""
        unread = hook_code_out_of_reach(self._reached(), lambda units: _hook_registration(units, None))
        return _hook_registration(self._reached(), self.facts) or (unread and (
            f"{unread}: it runs on the outputs of every forward pass this loop makes, and what it does with them "
            "(keeps them for a later backward, registers tensor hooks) may need the graph no_grad drops"))

    def _reached(self) -> list[Facts]:
        """The units whose code may run in this unit's loops (`_grad_only_code.reached_units`)."""
        if self._reached_units is None:
            self._reached_units = reached_units(self.facts)
        return self._reached_units

    def _saved_tensor_hooks(self) -> str:
        """Why the loop's side effects may change ('' if none): a saved-tensor hooks manager here
        or in reached code; its pack hook runs only for tensors autograd saves for backward, so
        whatever it counts, logs or offloads stops under no_grad."""
        found = saved_tensor_hooks(self._reached())
        if found is None:
            return ""
        unit, ref = found
        where = "" if unit is self.facts else " (in an earlier cell or a local module)"
        return (f"`{unit.code(ref)}`{where} installs saved-tensor hooks: autograd calls their pack hook only for "
                "tensors it saves for backward, so under no_grad what it counts, logs or offloads stops")

    def _cached_by_forward(self, loop: Loop) -> str:
        """Why a pass of this loop may change later passes ('' if none): the class of a
        `forward` the loop runs keeps something computed on the module and reads it back, in
        any method (`if self._bias is None: self._bias = self.table[idx]`, through a helper
        method, with `setattr`): built under no_grad, the cache has no graph, and the training
        passes after it never reach the parameters behind it."""
        for func in self.facts.per_iteration_functions:
            if isinstance(func, cst.FunctionDef) and func.name.value == "forward":
                owner = self.facts.owner_of(func)
                found = _kept_and_read(owner, next((a for a in owner.ancestors(func) if isinstance(a, cst.ClassDef)), None),
                                       func)
                if found:
                    return found
        return ""

    def _local_module_forwards(self) -> str:
        """Why a forward the loop runs out of the analysis' sight may act otherwise under no_grad
        ('' if none): a model built from a local module's class (`from models import Net`) runs the
        forwards of the submodules it holds through `self.body(x)`, calls that
        `per_iteration_functions` does not follow into another module, so `_forward_needs_grad`
        and `_cached_by_forward` never read them (red team 52: a submodule caching its standardised
        weight by version, another taking forces with `torch.autograd.grad`). Any class of a local
        module this unit reaches whose `forward` (or a method it calls on `self`) asks for autograd
        or reads the grad state, or that keeps a value it computes on the module and reads it back,
        leaves the rewrite to review (which of those classes the loop runs is not proved)."""
        for unit, cls in self._local_module_classes():
            methods = {m.name.value: m for m in cls.body.body if isinstance(m, cst.FunctionDef)}
            forward = methods["forward"]
            run, todo = {"forward"}, [forward]
            while todo:  # the forward and the methods it calls on `self`, transitively
                for n in unit.walk(todo.pop().body):
                    if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) \
                            and isinstance(n.func.value, cst.Name) and n.func.value.value == "self" \
                            and n.func.attr.value in methods and n.func.attr.value not in run:
                        run.add(n.func.attr.value)
                        todo.append(methods[n.func.attr.value])
            if any(_asks_for_grad(unit, methods[name].body, training_path=name == "forward") for name in run):
                return (f"`{cls.name.value}.forward` (a local module's class) asks for autograd or reads "
                        "whether a graph is recorded: if the model this loop runs holds it, under no_grad "
                        "it raises or computes something else")
            found = _kept_and_read(unit, cls, forward)
            if found:
                return f"{found} (a local module's class, which the model this loop runs may hold)"
        return ""

    def _hand_memo(self, loop: Loop) -> str:
        """Why a pass of this loop may hand its results to later passes ('' if none): a function it
        runs (called from the loop, a forward of its models, a method of a local module's class, and
        what those call) stores a computed value into a container it does not bind itself and reads
        it back (`if key not in _MEMO: _MEMO[key] = w / w.norm()` ... `return _MEMO[key]`,
        `CACHE.setdefault(k, v)`): a memo kept by hand. Built under no_grad the entry has no graph,
        and a training pass reading it back never reaches the parameters behind it (red team 52: a
        standardised weight memoised by the weight's version in a module-level dict). A container
        only appended to (a log) is not read back there."""
        work: list[tuple[Facts, cst.FunctionDef]] = []
        for call in self.facts.calls_in(loop.node.body):
            work += [(self.facts.owner_of(f), f) for f in self.facts._callees(call) if isinstance(f, cst.FunctionDef)]
        work += [(self.facts.owner_of(f), f) for f in self.facts.per_iteration_functions
                 if isinstance(f, cst.FunctionDef) and f.name.value == "forward"]
        work += [(unit, m) for unit, cls in self._local_module_classes() for m in cls.body.body
                 if isinstance(m, cst.FunctionDef)]
        seen: set[int] = set()
        while work and len(seen) < 80:
            owner, func = work.pop()
            if id(func) in seen:
                continue
            seen.add(id(func))
            memo = _hand_memo_name(owner, func)
            if memo:
                return (f"`{func.name.value}` keeps what it computes in `{memo}`, which outlives the call, and "
                        "reads it back (a memo kept by hand): built under no_grad the entry carries no graph, and "
                        "a training pass reading it back would not reach the parameters behind it")
            for call in owner.calls_in(func.body):
                for callee in owner._callees(call):
                    if isinstance(callee, cst.FunctionDef):
                        work.append((owner.owner_of(callee), callee))
        return ""

    def _local_module_classes(self) -> list[tuple[Facts, cst.ClassDef]]:
        """The classes with a `forward` of the local modules this unit reaches (not this unit, not
        its earlier cells, whose classes the per-iteration functions already hold)."""
        prior = {id(u) for u in self.facts.prior.units()}
        return [(unit, cls) for unit in self._reached() if unit is not self.facts and id(unit) not in prior
                for cls in unit.walk(unit.module) if isinstance(cls, cst.ClassDef)
                and any(isinstance(m, cst.FunctionDef) and m.name.value == "forward" for m in cls.body.body)]

    def _memoised_call(self, loop: Loop) -> str:
        """Why a pass of this loop may hand its results to later passes ('' if none): the loop
        calls, itself or through the functions it calls, a memoised function (`@functools.lru_cache`,
        `@functools.cache`, `cached_property`, or a name bound to `lru_cache(...)(fn)`). The cache
        keeps what this pass computed: built under no_grad it carries no graph, and a training pass
        that reads the same entry later never reaches the parameters behind it (red team 49: a
        sanity evaluation before training filling a feature memo)."""
        bodies: list[tuple[Facts, cst.CSTNode]] = [(self.facts, loop.node.body)]
        seen: set[int] = set()
        while bodies:
            owner, body = bodies.pop()
            for call in owner.calls_in(body):
                if isinstance(call.func, cst.Name) and _bound_to_memo(owner, call.func.value):
                    return (f"`{owner.code(call.func)}` is a memoised function: what this loop computes through it "
                            "stays in its cache, and a later pass that reads the cache back (training) would get "
                            "tensors without a graph under no_grad")
                for func in owner._callees(call):
                    if id(func) in seen or len(seen) >= 50:
                        continue
                    seen.add(id(func))
                    unit = owner.owner_of(func)
                    if isinstance(func, cst.FunctionDef) and any(_memoising(unit, d.decorator) for d in func.decorators):
                        return (f"`{func.name.value}` is memoised (`{unit.code(func.decorators[0].decorator)}`): what "
                                "this loop computes through it stays in its cache, and a later pass that reads the "
                                "cache back (training) would get tensors without a graph under no_grad")
                    bodies.append((unit, func.body))
        return ""

    def _returned_through_decorator(self, loop: Loop) -> str:
        """Why what the loop's function returns may reach a backward out of sight ('' if not):
        the function is wrapped by a decorator (not one known to leave results alone), whose
        wrapper gets the returned value first (a penalty it back-propagates)."""
        func = loop.function
        if func is None or not self._returns_a_graph(loop):
            return ""
        name = func.name.value
        wrappers = [d.decorator for d in func.decorators] + [  # `evaluate = penalised(evaluate)` wraps it too
            n.value for n in self.facts.walk(self.facts.module) if isinstance(n, cst.Assign) and isinstance(n.value, cst.Call)
            and any(isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets)
            and any(isinstance(a.value, cst.Name) and a.value.value == name for a in n.value.args)]
        for wrapper in wrappers:
            target = wrapper.func if isinstance(wrapper, cst.Call) else wrapper
            if (self.facts.qualified_name(target) or self.facts.code(target)) not in _RESULT_KEEPING_DECORATORS:
                return (f"`{name}` is wrapped by `{self.facts.code(wrapper)}`: the wrapper gets what it returns and "
                        "may back-propagate through it")
        return ""

    def _read_by_name(self) -> str:
        """Why the loop's names may reach a backward out of sight ('' if not): the program reads
        variables by name (`globals()["epoch_loss"].backward()` in a helper)."""
        reader = namespace_reader(self.facts)
        return (f"the program reads variables by name (`{reader}()`): what this loop builds may be read there and "
                "back-propagated") if reader else ""

    def _later_cell_backward(self, loop: Loop) -> bool:
        """A later cell of the notebook back-propagates and reads what this loop builds (the list
        it appends outputs to, a name it binds): test-time adaptation on collected predictions
        needs their graph, so the loop is not only evaluation. A later cell that reads whether
        a graph was recorded (`logits.requires_grad`, `.grad_fn`) would read another answer. A loop inside a function is left
        out: a later training cell calling `validate(...)` beside its own backward is the norm."""
        if loop.function is not None:
            return False
        built: set[str] = set()
        for n in self.facts.walk(loop.node):
            if isinstance(n, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.WithItem, cst.NamedExpr)):
                built |= set(bound_names(n.target if not isinstance(n, cst.WithItem) else n.asname.name)) \
                    if not isinstance(n, cst.WithItem) or n.asname is not None else set()
            built |= set(mutated_names(n))
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _STORING_METHODS:
                root = root_name(n.func.value)
                built |= {root} if root else set()
        built -= data_only_products(self.facts, loop, built)  # the probe's labels: the same tensors with grad off
        built |= self._derived_after(loop, built)  # `bank = [feats[:256]]` after the loop, in its cell
        for later in self.facts.later:
            backward = any(_back_propagates(later, c) for c in later.calls_in(later.module))
            read = (later.names_read(later.module) - later.names_written(later.module)) & built
            if backward and read and self._later_reads_reach_backward(later, read):
                return True
            if any(later.names_read(a.value) & built and _hands_to_backward(later, c)  # `adapt(outs)`
                   for c in later.calls_in(later.module) for a in c.args):
                return True
            graph_read = {root for n in later.walk(later.module)  # `print(logits.requires_grad)`
                          if isinstance(n, cst.Attribute) and n.attr.value in _GRAPH_STATE
                          and (root := root_name(n.value)) is not None}
            if (graph_read - later.names_written(later.module)) & built:
                return True
        return False

    def _importer_backward(self, loop: Loop) -> bool:
        """The loop's function is called by another unit of the program (a module importing this one,
        a notebook cell using a local module's helper: `Facts.callers`) that back-propagates what the
        call returns (`loss = helpers.step(model, batch); loss.backward()`, an LBFGS closure): the
        helper computes a training objective, not an evaluation (red team 57's leftover, recall 68).
        Followed as `_read_reaches_backward` follows a kept value: through the names the caller binds
        from the call, to a backward or a function of the caller that takes one."""
        func = loop.function
        if func is None or self._drops_graph(func):
            return False
        for unit in self.facts.callers:
            if unit is self.facts:
                continue
            training = {f for f in unit.functions.values()
                        if any(_back_propagates(unit, c) for c in unit.calls_in(f.body))}
            for call in unit.calls_in(unit.module):
                if func in unit._callees(call) and self._read_reaches_backward(
                        call, unit.enclosing_function(call), training, unit=unit, unfollowed=False):
                    return True
        return False

    def _drops_graph(self, func: FunctionNode) -> bool:
        """The function detaches or copies out what it computes somewhere (`parts.append(z.detach())`,
        `feats.numpy()`, `.item()`, `float(...)`): what it returns may reach a caller's backward only
        as data (red team 54: features extracted with `encoder.eval()`, scaled in NumPy, fed to a
        head that trains), so a backward downstream proves nothing about the loop's graph."""
        for call in self.facts.calls_in(func.body):
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in _GRAPH_DROPPING_METHODS:
                return True
            if (self.facts.qualified_name(call.func) or "") in ("builtins.float", "builtins.int"):
                return True
        return False

    def _derived_after(self, loop: Loop, built: set[str]) -> set[str]:
        """Names this cell binds (or stores into) after the loop, at its top level, from what the loop
        built or from names so derived (`bank = [feats[:256]]`, `pool.append(feats)`): a later cell
        reading them reads the loop's graph as surely as reading the loop's own names."""
        derived = set(built)
        start = self.facts.order(loop.node)
        for n in self.facts.walk(self.facts.module):
            if self.facts.order(n) <= start or self.facts.contains(loop.node, n) or self.facts.enclosing_function(n) is not None:
                continue
            if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and n.value is not None:
                targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
                for t in targets:  # `feats, labels = torch.cat(feats), torch.cat(labels)`: pair by pair
                    for names, value in _paired(t, n.value):
                        if self.facts.names_read(value) & derived:
                            derived |= names or set(mutated_names(t)) | ({r} if (r := root_name(t)) else set())
            elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _STORING_METHODS \
                    and any(self.facts.names_read(a.value) & derived for a in n.args) and (r := root_name(n.func.value)):
                derived.add(r)
        return derived - built

    def _later_reads_reach_backward(self, later: Facts, names: set[str]) -> bool:
        """Some read of `names` in the later cell `later` (which back-propagates) may give the graph
        to a backward there: followed as in this unit (`_read_reaches_backward`), so a linear probe
        trained on `feats[:256].detach()` and scored with `(probe(feats[256:]).argmax(1) == y)`
        reads no graph of the loop (the same proof as in one file; determinism56: splitting the
        program into cells lost the finding). Any use that proof does not follow counts as a feed."""
        training = self._back_propagating_functions(later)
        for name in names:
            for use in later.uses(name):
                if isinstance(later.parent(use), cst.AssignTarget):
                    continue
                if self._read_reaches_backward(use, later.enclosing_function(use), training, unit=later, unfollowed=True):
                    return True
        return False

    def _unseen_users(self, loop: Loop) -> str:
        """Why the loop's results may reach a `backward()` this unit cannot see ('' if none):
        without evidence of evaluation (`.eval()` before the loop, an evaluation name), a
        function nobody in the unit calls, or a notebook cell whose later cells are unknown."""
        if self._evaluation_evidence(loop):
            return ""
        func = loop.function
        if func is not None and not any(_called_name(c) == func.name.value for c in self.facts.calls_in(self.facts.module)):
            return (f"`{func.name.value}` is not called in this file: if a caller back-propagates through what it "
                    "returns or stores, no_grad would stop those gradients")
        if self.facts.namespace or self.facts.prior.aliases:
            return ("a later cell may back-propagate through what this loop builds (nothing here shows it is "
                    "evaluation: no `.eval()` before it)")
        return ""

    def _unseen_model_method(self, loop: Loop) -> bool:
        """`module.probe_step(batch)` on the very object put in eval mode, with a body this unit
        cannot see: a model's own hook is where test-time adaptation trains, so unseen code there
        is not the benefit of the doubt that an unknown data helper gets."""
        evaluated = {
            self.facts.code(call.func.value) for call in self.facts.calls_in(self._scope(loop))
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "eval" and not call.args
        }
        return any(
            isinstance(call.func, cst.Attribute) and self.facts.code(call.func.value) in evaluated
            and call.func.attr.value != "__call__" and not forward_variant(call.func.attr.value)
            and self.facts._function_at(call.func) is None
            for call in self.facts.calls_in(loop.node.body)
        )

    def _grad_mode_read(self) -> str:
        """Why code of this unit may act differently under no_grad ('' if nothing says so): a call
        of `torch.is_grad_enabled()` (a forward that checkpoints, counts or logs only with grad on)."""
        for unit in self._reached():
            for call in unit.calls_in(unit.module):
                if (unit.qualified_name(call.func) or "") in _GRAD_MODE_QUERIES:
                    where = f"line {unit.position(call).start.line}" if unit is self.facts \
                        else "an earlier cell or a local module"
                    return (f"{where} asks `{unit.code(call.func)}()`: code reached from this loop may take "
                            "another branch under no_grad (what it computes, counts or prints may change)")
        return ""

    def _shown_with_graph(self, loop: Loop) -> str:
        """Why the rewrite may change printed text ('' if nothing says so): a value the loop
        computes with the model is printed or formatted as a tensor (`print(out[:2])`,
        f"{total / n}"): its text shows `grad_fn=<...>` only while a graph is recorded. Also when
        the value reaches that text, or a file, through a holder (a dict by subscript, an object
        a method or `setattr` keeps it on), a `for` over what holds it, a function of the
        program that prints its argument, or the callers the loop's function returns it to
        (red team 32a)."""
        carried: set[str] = set()
        handed: list[cst.Call] = []
        for n in self.facts.walk(loop.node.body):
            if isinstance(n, (cst.Assign, cst.AugAssign, cst.NamedExpr)) and n.value is not None \
                    and self._graph_names(n.value):
                carried |= set(self._bound(n))
                if isinstance(n, cst.Assign):  # `peek[name] = logits[:2]`, `stats.last = out`: the container keeps it
                    carried |= {root for t in n.targets for root in mutated_names(t)}
            elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _STORING_METHODS \
                    and (root := root_name(n.func.value)) is not None and any(self._graph_names(a.value) for a in n.args):
                carried.add(root)
            elif isinstance(n, cst.Call) and n.args:
                handed.append(n)
        for call in handed:
            # any method handed what the loop computes may keep it on its object (`tracker.observe(probs)`
            # setting `self.best = ...`), and so do the storing functions (`setattr(record, name, margin)`)
            if not any(self._graph_names(a.value) & carried or any(self._model_call(c) for c in graph_calls(self.facts, a.value))
                       for a in call.args):
                continue  # (`xb.to(device)`: handed nothing the loop computed)
            if isinstance(call.func, cst.Attribute) and (root := root_name(call.func.value)) is not None:
                carried.add(root)
            elif (self.facts.qualified_name(call.func) or "") in _STORING_FUNCTIONS \
                    and (root := root_name(call.args[0].value)) is not None:
                carried.add(root)
        carried -= data_only_products(self.facts, loop, carried)
        scope = self._scope(loop)
        carried = graph_derived(self.facts, carried, scope)
        start = self.facts.order(loop.node)
        why = self._shown_in(self.facts, scope, carried, start)
        if why or loop.function is None:
            return why
        func = loop.function
        returned = [n.value for n in self.facts.walk(func.body) if isinstance(n, cst.Return) and n.value is not None
                    and self.facts.enclosing_function(n) is func and self._graph_names(n.value) & carried]
        if not returned:
            return ""
        sites = [(self.facts, c) for c in self.facts.calls_in(self.facts.module) if func in self.facts._callees(c)]
        sites += [s for s in self.facts.per_iteration_call_sites(func) if s not in sites]
        if not sites:
            return (f"`{func.name.value}` returns what the loop computes (`{self.facts.code(returned[0])}`) to callers "
                    "this file does not show: one that prints it shows `grad_fn=<...>` only while a graph is recorded")
        for owner, call in sites:
            caller = owner.enclosing_function(call)
            caller_scope = caller.body if caller is not None else owner.module
            stmt = owner.statement_of(call)
            bound = {name for n in owner.walk(stmt) if isinstance(n, (cst.Assign, cst.AugAssign, cst.NamedExpr))
                     for name in ([b for t in n.targets for b in bound_names(t.target)] if isinstance(n, cst.Assign)
                                  else list(bound_names(n.target)))}
            shown = self._shown_in(owner, caller_scope, graph_derived(owner, bound, caller_scope), owner.order(call),
                                   call)
            if shown:
                return f"`{func.name.value}` returns what the loop computes to a caller: {shown}"
        return ""

    @staticmethod
    def _shown_in(unit: Facts, scope: cst.CSTNode, carried: set[str], start: int, value: cst.CSTNode | None = None) -> str:
        """Where `scope` (of `unit`), after `start`, shows a value reading `carried` (or containing
        the node `value`) as a tensor: a text sink, a serializer, or a function of the program that
        prints what it is handed. '' when none."""
        def reads(expr: cst.CSTNode) -> bool:
            return bool(graph_names(unit, expr) & carried) or value is not None and unit.contains(expr, value)

        for shown in text_sinks(unit, scope):
            if unit.order(shown) > start and reads(shown):
                return (f"line {unit.position(shown).start.line} prints `{unit.code(shown)}` as a tensor: its text shows "
                        "`grad_fn=<...>` while autograd records a graph, and not under no_grad")
        for call in unit.calls_in(scope):
            if unit.order(call) <= start or not any(reads(a.value) for a in call.args):
                continue
            if (unit.qualified_name(call.func) or "") in _SERIALIZERS:
                return (f"line {unit.position(call).start.line} writes `{unit.code(call.args[0].value)}` out with "
                        f"`{unit.code(call.func)}`: whoever loads it (a later cell, another script) gets tensors "
                        "with `requires_grad=True` (shown, asked, back-propagated through), and not under no_grad")
            for callee in unit._callees(call):
                if not isinstance(callee, cst.FunctionDef):
                    continue
                owner = unit.owner_of(callee)
                params = named_params(callee.params)
                derived = graph_derived(owner, params, callee.body)
                printed = next((t for t in text_sinks(owner, callee.body) if graph_names(owner, t) & derived), None)
                if printed is not None:
                    return (f"line {unit.position(call).start.line} hands it to `{callee.name.value}`, which prints "
                            f"`{owner.code(printed)}` as a tensor: its text shows `grad_fn=<...>` only while a graph is recorded")
        return ""

    def _fast_path_modules(self) -> str:
        """Why grad being off may change the numbers ('' if nothing says so): in eval mode with
        grad off, attention and transformer layers take PyTorch's fused fast path and an LSTM
        oneDNN's inference kernel on CPU, whose results differ in the last bits (enough to flip a
        tie in a ranking), and a `TransformerEncoder` with a
        padding mask returns zeros at the padded positions (a nested tensor). That holds for such layers
        built here, in a class of another unit built here, or in a model whose code the
        analysis cannot see (a model zoo's constructor, a loaded whole model)."""
        used = fast_path_classes(self._reached())
        unseen = {name for call in self.facts.calls_in(self.facts.module)
                  if f"{(name := self.facts.qualified_name(call.func) or '')}.".startswith(_MODEL_SOURCES)}
        padded = ("; a `TransformerEncoder` given a padding mask returns zeros at the padded positions there "
                  "(a nested tensor), not the numbers the autograd path computes")
        if used:
            return (f"this program builds (or looks up by name) {', '.join(f'`{u}`' for u in sorted(used))}: in eval mode under no_grad "
                    "PyTorch runs another kernel (the fused fast path of attention and transformer layers, oneDNN's "
                    "LSTM on CPU), whose outputs differ in the last bits from the autograd path "
                    "(a ranking or an argmax over near-ties may change)"
                    + (padded if "TransformerEncoder" in used else ""))
        if unseen:
            return (f"the model may come from code the analysis cannot see (`{sorted(unseen)[0]}`): if it has "
                    "attention, transformer or LSTM layers, under no_grad in eval mode PyTorch runs another "
                    "kernel for them, whose outputs differ in the last bits (a ranking or an argmax over near-ties "
                    "may change)"
                    + padded)
        return ""

    def _scope(self, loop: Loop) -> cst.CSTNode:
        return loop.function.body if loop.function is not None else self.facts.module

    def _evaluation_evidence(self, loop: Loop) -> bool:
        """`.eval()` called before the loop in its function (or section), or by a helper the loop
        calls before it runs the model (`engine.eval(x, y)`), or a name that says evaluation."""
        start = self.facts.order(loop.node)
        if any(evaluates_model(self.facts, callee) for call in self.facts.calls_in(loop.node.body)
               for callee in self.facts._callees(call)):
            return True
        for call in self.facts.calls_in(self._scope(loop)):
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "eval" and not call.args \
                    and self.facts.order(call) < start:
                return True
        names = [loop.function.name.value] if loop.function is not None else []
        if isinstance(loop.node, cst.For):
            names += [n for n in self.facts.names_read(loop.node.iter)]
        return any(_EVAL_NAME.search(n) for n in names)

    def _unrolls_a_recurrence(self, loop: Loop) -> bool:
        """`hidden_t = rnn_cell(x[t], hidden_t)` over the time steps (Made-With-ML's RNN lesson):
        each model call takes the state the previous one returned, so the loop is one forward pass
        of a recurrent model unrolled, whose graph a later backward may need; without `.eval()` or
        an evaluation name it is not an evaluation loop."""
        for node in self.facts.walk(loop.node.body, into_scopes=False):
            if not (isinstance(node, cst.Assign) and isinstance(node.value, cst.Call) and self._model_call(node.value)):
                continue
            bound = {name for target in node.targets for name in bound_names(target.target)}
            for arg in node.value.args:  # `cell(x[t], h)`, `lstm_cell(x[t], (h, c))`
                parts = [el.value for el in arg.value.elements] if isinstance(arg.value, (cst.Tuple, cst.List)) \
                    else [arg.value]
                if any(isinstance(p, cst.Name) and p.value in bound for p in parts):
                    return True
        return False

    def _zeroes_gradients(self, loop: Loop) -> bool:
        """`optimizer.zero_grad()` in the loop: alone it trains nothing, but beside code the
        analysis cannot see into it says a backward is likely coming there."""
        return any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "zero_grad"
                   for c in self.facts.calls_in(loop.node))

    def _rebinds_same_object(self, assign: cst.Assign) -> bool:
        """`self.ncf = self.ncf.eval()`, `model = model.to(device)`: the target gets back the object
        it holds (switched or moved), no value of the loop's own."""
        value = same_object(assign.value)
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        return isinstance(target, (cst.Name, cst.Attribute)) and value is not assign.value \
            and isinstance(value, (cst.Name, cst.Attribute)) and self.facts.code(value) == self.facts.code(target)

    def _same_object_rebinds(self, loop: Loop, names: set[str]) -> set[str]:
        """Names the loop binds only to the object they already hold, switched or moved
        (`self.ncf = self.ncf.eval()`, `model = model.to(device)`): the loop gives them no value of
        its own, so a later backward that reads them reads nothing the loop made."""
        found: dict[str, bool] = {name: False for name in bound_names(loop.node.target)} \
            if isinstance(loop.node, cst.For) else {}  # `for x in outs: x = x.to(d)`: x is the loop's item
        for n in self.facts.walk(loop.node.body):
            if isinstance(n, (cst.AugAssign, cst.NamedExpr, cst.AnnAssign)):
                for name in bound_names(n.target):
                    found[name] = False
            elif isinstance(n, (cst.For, cst.CompFor)):
                for name in bound_names(n.target):
                    found[name] = False
            elif isinstance(n, cst.WithItem) and n.asname is not None:
                for name in bound_names(n.asname.name):
                    found[name] = False
            if not isinstance(n, cst.Assign):
                continue
            ok = self._rebinds_same_object(n)
            for target in n.targets:
                for name in list(bound_names(target.target)) or [self.facts.code(target.target)]:
                    found[name] = found.get(name, True) and ok
        return {name for name in names if found.get(name)}

    def _feeds_backward(self, loop: Loop, skip_host_keeping: bool = True) -> bool:
        """True if a value the loop builds reaches a `.backward()` anywhere in the unit (REINFORCE
        rollouts; a function that sums a loss over a loop and returns it, whatever the order of
        definitions). Names are resolved where they are read: a function's own binding of
        `output` is not the one another function's loop makes (read there, the unit's)."""
        Key = tuple[FunctionNode | None, str]
        assigned: dict[Key, list[cst.BaseExpression]] = {}
        inside = set(self.facts.walk(loop.node))
        start = self.facts.order(loop.node)

        def key(node: cst.CSTNode, name: str) -> Key:  # attributes (`self.out`) outlive any one function
            func = self.facts.enclosing_function(node)
            return (None if "." in name or func is not None and name in _declared(self.facts, func, cst.Global)
                    else func, name)

        if loop.function is not None and self._escapes_enclosing_function(loop):
            return True  # `nonlocal`/a closure's list: what the loop keeps outlives its function
        if self._kept_on_object_for_backward(loop):
            return True

        accumulated: set[Key] = set()  # bound by `total += x` or `xs.append(x)`: earlier values still flow
        bindings: dict[str, list[tuple[cst.CSTNode, cst.BaseExpression]]] = {}  # every one, where it is
        reads: list[tuple[str, cst.CSTNode]] = []  # what each backward reads, and where
        read_at: list[tuple[Key, cst.CSTNode]] = []  # every read followed from a backward, and where
        next_pass = False

        def bind(node: cst.CSTNode, names: Iterable[str], value: cst.BaseExpression, accumulates: bool = False) -> None:
            for name in names:
                assigned.setdefault(key(node, name), []).append(value)
                if accumulates:
                    accumulated.add(key(node, name))

        for n in self.facts.walk(self.facts.module):
            if n in inside:
                continue
            if isinstance(n, cst.Assign):
                for target in n.targets:
                    for name in list(bound_names(target.target)) or list(mutated_names(target)):
                        bindings.setdefault(name, []).append((n, n.value))
            elif isinstance(n, (cst.AugAssign, cst.NamedExpr)) and n.value is not None:
                for name in bound_names(n.target):
                    bindings.setdefault(name, []).append((n, n.value))
            elif isinstance(n, (cst.For, cst.CompFor)):
                for name in bound_names(n.target):
                    bindings.setdefault(name, []).append((n, n.iter))
            elif isinstance(n, cst.WithItem) and n.asname is not None:  # `with nullcontext(val) as reg:`
                for name in bound_names(n.asname.name):
                    bindings.setdefault(name, []).append((n, n.item))
            if isinstance(n, cst.Assign) and self.facts.order(n) < start \
                    and self.facts.enclosing_function(n) is loop.function:
                next_pass |= not self._done_before(n, loop, start)  # runs again after the loop, on a later pass
                continue  # set up before the loop (`log_probs = []`): the loop's value replaces it
            if isinstance(n, cst.Attribute) and (n.attr.value in _GRAPH_STATE or self._backward_taken(n)) \
                    and not self._done_before(n, loop, start):
                # `print(total.requires_grad)`, `if out.grad_fn is not None`: the graph itself is read;
                # `finish = total.backward`: a backward called later under another name
                read = self.facts.names_read(n.value)
                reads += [(name, n) for name in read]
                read_at.extend((key(n, name), n) for name in read)
            if isinstance(n, cst.Call):
                func = n.func
                backward = (isinstance(func, cst.Attribute) and func.attr.value == "backward") \
                    or (self.facts.qualified_name(func) or "") in ("torch.autograd.grad", "torch.autograd.backward") \
                    or opaque_call(self.facts, n, parameters=self.facts.enclosing_function(n) is loop.function
                                   and self.facts.order(n) > start) \
                    or any(self._backward_function(a.value) for a in n.args) \
                    or isinstance(func, cst.Name) and self._backward_function(func)  # `bw = torch.autograd.backward; bw(s)`
                if backward:
                    if not self._done_before(n, loop, start):  # `loss.backward()`, `accelerator.backward(loss)`
                        read = (self.facts.names_read(n) - _helper_receiver(self.facts, n)) \
                            | self._returned_by_loop_function(loop, n, skip=n)
                        reads += [(name, n) for name in read]
                        read_at.extend((key(n, name), n) for name in read)
                elif isinstance(func, cst.Attribute) and func.attr.value in _STORING_METHODS:
                    # a value stored into a container flows into it: `policy_losses.append(-lp * adv)`
                    root = root_name(func.value)
                    if root is not None:
                        for a in n.args:
                            bind(n, [root], a.value, accumulates=True)
            # Values flow through every binding: `out, y = pair`, `for out, y in cache`,
            # `total += loss`, `with ... as h`, `(h := ...)`, `losses[k] = l`, `self.out = h`.
            elif isinstance(n, cst.Assign):
                for target in n.targets:
                    for names, value in _paired(target.target, n.value):
                        bind(n, list(names) or list(mutated_names(target)), value)
            elif isinstance(n, (cst.AugAssign, cst.NamedExpr)) and n.value is not None:
                bind(n, bound_names(n.target), n.value, accumulates=isinstance(n, cst.AugAssign))
            elif isinstance(n, (cst.For, cst.CompFor)):
                bind(n, bound_names(n.target), n.iter)
            elif isinstance(n, cst.WithItem) and n.asname is not None:
                bind(n, bound_names(n.asname.name), n.item)
        # graphs reach no option's owner, nor an object a call only logs host values into (`_host_logging`)
        skipped = host_keeping_calls(self.facts, loop) if skip_host_keeping else frozenset()
        produced = set(loop.writes) | self.facts.mutated_in_loop_skipping(loop, skipped)
        produced -= data_only_products(self.facts, loop, produced)  # the same tensors with grad off
        produced -= self._same_object_rebinds(loop, produced)  # `self.ncf = self.ncf.eval()`: no new value
        func = loop.function
        if func is not None:
            produced.add(func.name.value)
        shared = _declared(self.facts, func, cst.Global) if func is not None else set()
        seen: set[Key] = set()
        followed: set[tuple[int, str]] = set()
        work = list(read_at)  # (name, where it is read): a read after the loop sees the loop's value unless rebound
        while work:
            (scope, name), at = work.pop()
            if (scope, name) not in assigned and scope is not None and not self._local(scope, name, loop):
                scope = None  # not bound in that function: the unit's name
            values = assigned.get((scope, name))
            visible = scope is loop.function or scope is None and (
                loop.function is None or "." in name or name == loop.function.name.value or name in shared)
            if scope is None and name in shared and name in produced:
                return True  # a `global` the loop binds: any call of its function may come before this read
            if (values is None or (scope, name) in accumulated or self._read_before_rebound(loop, at, values)) \
                    and name in produced and visible:
                if (id(at), name) in followed:
                    continue
                rebound = self._bound_in_pass(loop, at, name)
                if rebound is None:
                    return True  # its value from the loop is still the one read (or added to)
                followed.add((id(at), name))  # `l, acc = loss(...)` right before `l.backward()`: that value
                work.extend((key(value, read), value) for value in rebound for read in self._flow(loop, value))
                continue
            if (scope, name) in seen:
                continue
            seen.add((scope, name))
            for value in values or ():
                work.extend((key(value, read), value) for read in self._flow(loop, value))
            if values is None and scope is not None and scope is not loop.function and self._parameter(scope, name):
                # `def step(t): t.backward()`: a parameter holds whatever its callers pass
                passed = self._arguments_passed_to(scope, inside)
                if passed is None:
                    if self._returns_a_graph(loop):
                        return True  # called from code this unit does not show: it may pass what the loop returns
                    continue
                work.extend((key(arg, read), arg) for arg in passed for read in self._flow(loop, arg))
        if not next_pass:
            return False
        # Carried to the next pass by name: what the loop binds or stores into a container (not
        # every object a method of which it calls: the model it evaluates is read by every loss).
        stored = {root for c in self.facts.calls_in(loop.node.body) if isinstance(c.func, cst.Attribute)
                  and c.func.attr.value in _STORING_METHODS and (root := root_name(c.func.value)) is not None}
        stored |= {root for c in self.facts.calls_in(loop.node.body) for root in self._stored_through_helper(c)}
        carried = set(loop.writes) | stored | ({func.name.value} if func is not None else set())
        return self._feeds_next_pass(loop, carried, bindings, reads)

    def _backward_taken(self, node: cst.Attribute) -> bool:
        """`t.backward` taken as a value (`finish = t.backward`, `partial(t.backward)`), not called here."""
        parent = self.facts.parent(node)
        return node.attr.value == "backward" and not (isinstance(parent, cst.Call) and parent.func is node)

    def _backward_function(self, expr: cst.BaseExpression) -> bool:
        """`torch.autograd.backward` / `grad` or a bound `t.backward` handed to a call as a value,
        or a name bound to one of them."""
        if isinstance(expr, cst.Name) and (self.facts.qualified_name(expr) or "") not in _BACKWARD_FUNCTIONS:
            expr = self.facts.value_of(expr) or expr
        if isinstance(expr, cst.Attribute) and expr.attr.value == "backward":
            return True
        return (self.facts.qualified_name(expr) or "") in _BACKWARD_FUNCTIONS

    def _stored_through_helper(self, call: cst.Call) -> set[str]:
        """Roots of the arguments `call` hands to parameters that its function (of this unit, an
        earlier cell or a local module) stores values into (`record(opt.history, loss)` with
        `def record(history, value): history.append(value)`): what the loop passes may be kept there."""
        func = self.facts._function_at(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
        if not isinstance(func, cst.FunctionDef):
            return set()
        owner = self.facts.owner_of(func)
        filled = {root for c in owner.calls_in(func.body) if isinstance(c.func, cst.Attribute)
                  and c.func.attr.value in _STORING_METHODS and (root := root_name(c.func.value)) is not None}
        params = positional_params(func)
        if isinstance(call.func, cst.Attribute) and params[:1] in (["self"], ["cls"]):
            params = params[1:]
        roots: set[str] = set()
        for i, arg in enumerate(call.args):
            param = arg.keyword.value if arg.keyword is not None else params[i] if i < len(params) and not arg.star else None
            if (param is None or param in filled) and (root := root_name(arg.value)) is not None:
                roots.add(root)  # a `*args` may land on any parameter
        return roots

    def _kept_on_object_for_backward(self, loop: Loop) -> bool:
        """The loop keeps what it builds on an object (`self.outs.append(...)`, `self.cache[k] = out`,
        `self.last = out`; in any function or the script, `Tally.total += loss`, `stats.last = out`),
        and a function other than the loop's (another method reading it through `self` or `cls`, a
        subclass's, one given the object) reads an attribute of that name and back-propagates
        there (a distiller collecting teacher outputs, then `fit()`; a classmethod's `cls.total.backward()`)."""
        func = loop.function
        in_method = func is not None and isinstance(block := self.facts.parent(func), cst.IndentedBlock) \
            and isinstance(self.facts.parent(block), cst.ClassDef)
        kept_name = _self_attribute if in_method else _kept_attribute
        kept = {kept_name(c.func.value) for c in self.facts.calls_in(loop.node.body)
                if isinstance(c.func, cst.Attribute) and c.func.attr.value in _STORING_METHODS}
        kept |= {kept_name(t.target) for n in self.facts.walk(loop.node.body) if isinstance(n, cst.Assign)
                 for t in n.targets if not self._rebinds_same_object(n)}  # not `self.ncf = self.ncf.eval()`
        kept |= {kept_name(n.target) for n in self.facts.walk(loop.node.body) if isinstance(n, cst.AugAssign)}
        kept |= self._kept_after_loop(loop, kept_name)
        kept.discard(None)
        held = self._module_holders(loop)
        if not kept and not held:
            return False
        training = self._back_propagating_functions()
        for n in self.facts.walk(self.facts.module):
            global_read = isinstance(n, cst.Name) and n.value in held \
                and not (isinstance(up := self.facts.parent(n), cst.Attribute) and up.attr is n) \
                and (scope_of := self.facts.enclosing_function(n)) is not None and not binds_locally(scope_of, n.value)
            if isinstance(n, cst.Call) and not _back_propagates(self.facts, n) \
                    and any(f in training for f in self.facts._callees(n)) \
                    and any(isinstance(m, cst.Attribute) and m.attr.value in kept or isinstance(m, cst.Name) and m.value in held
                            for a in n.args for m in self.facts.walk(a.value)):
                return True  # `step(model, opt, x, y, CACHE["val"])`: handed to a function that back-propagates
            if isinstance(n, cst.Attribute) and n.attr.value in kept or global_read:
                scope = self.facts.enclosing_function(n)
                if scope is not func and self._read_reaches_backward(n, scope, training):
                    return True  # (fix49: the kept value itself, followed to the backward)
        return False

    def _read_reaches_backward(self, read: cst.CSTNode, scope: FunctionNode | None, training: set[FunctionNode],
                               depth: int = 0, unit: Facts | None = None, unfollowed: bool | None = None) -> bool:
        """What `read` (a kept attribute or holder, read where another function runs) gives may reach
        a backward: through the statement holding it and the names it binds, followed in that
        function, to `x.backward()` / `torch.autograd.grad(...)` / a function of the unit that
        back-propagates; or it is stored, returned or handed to code this does not follow while the
        unit back-propagates somewhere. Not when it is only read as a number or text (`print`,
        `float`, `.item()`, a comparison): an evaluation whose kept value is only shown (fix49;
        was: any read in a function that back-propagates anything, by name).

        `unit` is the unit `read` is in (a later cell: `_later_cell_backward`; default this one);
        `unfollowed` what a use this does not follow gives (default: whether `training` is non-empty)."""
        unit = unit or self.facts
        if unfollowed is None:
            unfollowed = bool(training)
        if depth > 5:
            return unfollowed
        store: cst.CSTNode = read
        while isinstance(up := unit.parent(store), (cst.Attribute, cst.Subscript)) and up.value is store:
            store = up
        if isinstance(up, (cst.AssignTarget, cst.AnnAssign)) and up.target is store:
            return False  # `self.val = 0.0`, `CACHE["val"] = 0.0`: a store, which reads nothing kept
        node: cst.CSTNode = read
        for anc in unit.ancestors(read):
            if isinstance(anc, cst.Comparison) or isinstance(anc, cst.Call) and _graphless_read(unit, anc, node):
                return False  # `if self.val < best:`, `print(self.val)`, `float(CACHE["val"])`, `self.val.item()`
            if isinstance(anc, cst.Call) and (_back_propagates(unit, anc) or any(f in training for f in unit._callees(anc))):
                return True  # `self.val.backward()`, `step(model, self.val)`
            if isinstance(anc, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                node = anc
                break
            node = anc
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            if any(not isinstance(t, (cst.Name, cst.Tuple, cst.List)) for t in targets):
                return unfollowed  # stored again: `self.total = loss + self.val`
            names = {b for t in targets for b in bound_names(t)}
            later = [u for name in names for u in self._uses_after(name, node, scope, unit)
                     if not isinstance(unit.parent(u), cst.AssignTarget)]
            return any(self._read_reaches_backward(u, scope, training, depth + 1, unit, unfollowed) for u in later) \
                or (scope is None and bool(unit.later) and unfollowed)
        if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
            call = node.value
            if (unit.qualified_name(call.func) or "").startswith("builtins.") \
                    and not (unit.qualified_name(call.func) or "").endswith(("setattr", "exec", "eval")):
                return False  # `print(...)`, `len(...)`: a builtin that reads
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in _STORING_METHODS \
                    and isinstance(call.func.value, cst.Name) and self._local_container(call.func.value.value, scope, unit):
                later = self._uses_after(call.func.value.value, node, scope, unit)
                return any(self._read_reaches_backward(u, scope, training, depth + 1, unit, unfollowed) for u in later)
        if isinstance(node, cst.Return) and scope is not None and unit.enclosing_function(node) is scope:
            callers = [c for c in unit.calls_in(unit.module) if scope in unit._callees(c)]
            if callers and not unit.later:  # `def summary(self): return self.val_loss`, its callers followed
                return any(self._read_reaches_backward(c, unit.enclosing_function(c), training, depth + 1, unit, unfollowed)
                           for c in callers)
        return unfollowed  # returned, stored by a call, a loop over it: not followed

    def _back_propagating_functions(self, unit: Facts | None = None) -> set[FunctionNode]:
        """Functions of the unit (default this one) that back-propagate, themselves or through the unit's
        functions they call (`step(model, opt, x, y, CACHE["val"])` with `step` calling `loss.backward()`)."""
        unit = unit or self.facts
        found = {unit.enclosing_function(c) for c in unit.calls_in(unit.module)
                 if _back_propagates(unit, c)} - {None}
        calls = [(unit.enclosing_function(c), c) for c in unit.calls_in(unit.module)]
        grew = True
        while grew:
            grew = False
            for scope, call in calls:
                if scope is not None and scope not in found and any(f in found for f in unit._callees(call)):
                    found.add(scope)
                    grew = True
        return found  # type: ignore[return-value]

    def _module_holders(self, loop: Loop) -> set[str]:
        """Module-level names the loop's function stores what the loop builds into, in the loop
        or after it (`CACHE["val"] = total / n`, `HISTORY.append(acc)`, `setattr(BOX, "p", run)`,
        `STATS.last = out`): any function of the module may read them there, and one that
        back-propagates trains through the loop's graph (red team 27)."""
        func = loop.function
        if func is None:
            return set()
        produced = self._produced(loop, func)
        inside = set(self.facts.walk(loop.node))
        held: set[str] = set()
        for n in self.facts.walk(func.body, into_scopes=False):
            targets: list[cst.BaseExpression] = []
            if isinstance(n, (cst.Assign, cst.AugAssign)) and (n in inside or self._graph_names(n.value) & produced):
                targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
                targets = [t for t in targets if isinstance(t, (cst.Attribute, cst.Subscript))]
            elif isinstance(n, cst.Call) and (any(self._graph_names(a.value) & produced for a in n.args)
                                              or self.facts.contains(loop.node, n)):
                if isinstance(n.func, cst.Attribute) and n.func.attr.value in _STORING_METHODS:
                    targets = [n.func.value]
                elif (self.facts.qualified_name(n.func) or "") == "builtins.setattr" and n.args:
                    targets = [n.args[0].value]
            for target in targets:
                root = root_name(target)
                if root is not None and root != "self" and not binds_locally(func, root):
                    held.add(root)
        return held

    def _uses_after(self, name: str, stmt: cst.CSTNode, scope: FunctionNode | None, unit: Facts | None = None) -> list[cst.Name]:
        """Reads of `name` in `scope` (of `unit`, default this one) that may run after `stmt`: later in
        the text, or anywhere in a loop around `stmt` (the next pass); not those inside `stmt` itself."""
        unit = unit or self.facts
        loops = [a for a in unit.ancestors(stmt) if isinstance(a, (cst.For, cst.While))
                 and (scope is None or unit.contains(scope, a))]
        return [u for u in unit.uses(name) if unit.enclosing_function(u) is scope
                and not unit.contains(stmt, u)
                and (unit.order(u) > unit.order(stmt) or any(unit.contains(lp, u) for lp in loops))]

    def _local_container(self, name: str, scope: FunctionNode | None, unit: Facts | None = None) -> bool:
        """`name` is a local of `scope`, or (at the top level of a script) a global no function reads."""
        unit = unit or self.facts
        if scope is not None:
            return binds_locally(scope, name)
        return not unit.later and all(unit.enclosing_function(u) is None for u in unit.uses(name))

    def _produced(self, loop: Loop, func: FunctionNode) -> set[str]:
        """The names the loop binds, and the names its function binds from them after it (`mean =
        total / n`, then `self.val = mean`): what is kept may be renamed before it is stored (fix49)."""
        produced = set(loop.writes)
        inside = set(self.facts.walk(loop.node))
        assigns = [n for n in self.facts.walk(func.body, into_scopes=False)
                   if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and n not in inside and n.value is not None]
        grew = True
        while grew:
            grew = False
            for n in assigns:
                targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
                names = {b for t in targets if isinstance(t, (cst.Name, cst.Tuple, cst.List)) for b in bound_names(t)}
                if names - produced and self._graph_names(n.value) & produced:  # type: ignore[arg-type]
                    produced |= names
                    grew = True
        return produced

    def _kept_after_loop(self, loop: Loop, kept_name: Callable[[cst.BaseExpression], str | None]) -> set[str | None]:
        """Attributes the loop's function stores, outside the loop, a value built from what the
        loop binds: `self.val_penalty = total / len(self.val)` after a validation loop summing
        losses, which another method adds to its loss and back-propagates (red team 27)."""
        func = loop.function
        if func is None:
            return set()
        produced = self._produced(loop, func)
        inside = set(self.facts.walk(loop.node))
        kept: set[str | None] = set()
        for n in self.facts.walk(func.body, into_scopes=False):
            if n in inside:
                continue
            if isinstance(n, (cst.Assign, cst.AugAssign)) and self._graph_names(n.value) & produced:
                targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
                kept |= {kept_name(t) for t in targets if isinstance(t, (cst.Attribute, cst.Subscript))}
            elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _STORING_METHODS \
                    and any(self._graph_names(a.value) & produced for a in n.args):
                kept.add(kept_name(n.func.value))
        return kept

    def _escapes_enclosing_function(self, loop: Loop) -> bool:
        """A loop in a nested function that binds a `nonlocal` name or stores into a name its
        function does not bind (`found.append(net(x))` with `found = []` in the enclosing
        function): the outputs leave through a closure, which this analysis does not follow."""
        func = loop.function
        assert func is not None
        if self.facts.enclosing_function(func) is None:
            return False
        outer = _declared(self.facts, func, cst.Nonlocal)
        if outer & set(loop.writes):
            return True
        params = named_params(func.params)
        bound = {name for n in self.facts.walk(func.body, into_scopes=False)
                 if isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr))
                 for name in bound_names(n.target)}
        local = (params | bound) - outer - _declared(self.facts, func, cst.Global)
        return any(isinstance(c.func, cst.Attribute) and c.func.attr.value in _STORING_METHODS
                   and (root := root_name(c.func.value)) is not None and root not in local and root != "self"
                   for c in self.facts.calls_in(loop.node.body))

    def _bound_in_pass(self, loop: Loop, at: cst.CSTNode, name: str) -> list[cst.BaseExpression] | None:
        """What `name` read at `at` may hold when every path to `at` rebinds it after the loop last
        ran: an earlier statement of the same block (or of a block around it, inside the loop
        that holds both) binds it outright, or a `for` around `at` binds it as its target. The
        values of that binding, of every write between it and `at` (a branch's `x = x.cuda()`, an
        `append`) and of every write of each compound statement left on the way (a loop's later
        writes reach its next iteration; a `with ... as`, a `try` body before its handler).
        None when a path may reach `at` with the loop's value: no such binding before the
        statement holding the loop, or a write this cannot follow (`del`, `import`, `global`)."""
        facts = self.facts
        if facts.enclosing_function(at) is not loop.function or any(a is loop.node for a in facts.ancestors(at)):
            return None
        values: list[cst.BaseExpression] = []
        stmt = facts.statement_of(at)
        while True:
            block = facts.parent(stmt)
            if not isinstance(block, (cst.IndentedBlock, cst.Module)):
                return None
            for prev in reversed(list(block.body[:block.body.index(stmt)])):
                if prev is loop.node or any(a is prev for a in facts.ancestors(loop.node)):
                    return None
                found = self._writes_of_name(prev, name)
                if found is None:
                    return None
                values += found[0]
                if found[1]:
                    return values
            owner = facts.parent(block)
            if isinstance(owner, cst.For) and block is owner.body and name in bound_names(owner.target):
                return values + [owner.iter]
            outer = next((a for a in facts.ancestors(block) if isinstance(a, cst.BaseCompoundStatement)
                          and isinstance(facts.parent(a), (cst.IndentedBlock, cst.Module))), None)
            if outer is None or isinstance(outer, (cst.FunctionDef, cst.ClassDef)):
                return None
            if isinstance(outer, (cst.For, cst.While)) and any(a is outer for a in facts.ancestors(loop.node)):
                return None  # out of the pass: what the loop bound on the previous one may be read
            # Every write of the statement the block belongs to may come first: a loop body's later
            # writes reach its next iteration, a `with`'s `as`, a `try`'s body before its handler.
            around = self._writes_of_name(outer, name)
            if around is None:
                return None
            values += around[0]
            stmt = outer

    def _writes_of_name(self, stmt: cst.CSTNode, name: str) -> tuple[list[cst.BaseExpression], bool] | None:
        """(values written to `name` in `stmt`, whether `stmt` rebinds it outright: a plain
        assignment line); None for a write whose value this cannot name."""
        values: list[cst.BaseExpression] = []
        replaces = False
        for node in self.facts.walk(stmt, into_scopes=False):
            if name not in set(writes_of(node)):
                continue
            parent = self.facts.parent(node)
            if isinstance(node, cst.AssignTarget) and isinstance(parent, cst.Assign):
                paired = [v for names, v in _paired(node.target, parent.value) if name in names]
                values += paired or [parent.value]
                replaces |= bool(paired) and isinstance(stmt, cst.SimpleStatementLine)
            elif isinstance(node, (cst.AugAssign, cst.NamedExpr)):
                values.append(node.value)
            elif isinstance(node, cst.For):
                values.append(node.iter)
            elif isinstance(node, cst.WithItem):
                values.append(node.item)
            elif isinstance(node, cst.Call) and not (isinstance(node.func, cst.Name) and node.func.value == "next"):
                values += [a.value for a in node.args]
            else:
                return None
        return values, replaces

    def _read_before_rebound(self, loop: Loop, at: cst.CSTNode, values: list[cst.BaseExpression]) -> bool:
        """`at` reads the name after the loop, in its function, with no binding of the name
        between the loop's end and it (`loss_ref = acc` right after the loop, `acc = 0` for
        another loop further down): the value read there is still the loop's."""
        end = max(self.facts.order(n) for n in self.facts.walk(loop.node))
        return self.facts.order(at) > end and self.facts.enclosing_function(at) is loop.function \
            and not any(end < self.facts.order(v) < self.facts.order(at) for v in values)

    @staticmethod
    def _parameter(scope: FunctionNode, name: str) -> bool:
        params = scope.params
        return name in named_params(params) \
            or any(isinstance(p, cst.Param) and p.name.value == name for p in (params.star_arg, params.star_kwarg))

    def _arguments_passed_to(self, scope: FunctionNode, inside: set[cst.CSTNode]) -> list[cst.BaseExpression] | None:
        """Every argument of every call of `scope` in this unit outside the loop (None if it has
        no call here at all). A call inside the loop is the loop running the helper, judged by
        `may_train`; only a value carried out of the loop reaches a call outside it."""
        calls = [c for c in self.facts.calls_in(self.facts.module) if scope in self.facts._callees(c)]
        return [a.value for c in calls if c not in inside for a in c.args] if calls else None

    def _returns_a_graph(self, loop: Loop) -> bool:
        """The loop's function may hand a value with an autograd graph to its callers: what it
        returns reads (through the function's bindings) a name the loop binds or stores from a
        value that keeps a graph (`total = total + loss`), not one cut by `.item()`/`.tolist()`.
        A loop at module level: its names are the unit's, anyone may read them."""
        func = loop.function
        if func is None:
            return True
        body = [n for n in self.facts.walk(func.body) if self.facts.enclosing_function(n) is func]
        names = {name for n in body if isinstance(n, cst.Return) and n.value is not None
                 for name in self._graph_names(n.value)}
        inside = set(self.facts.walk(loop.node))
        grew = True
        while grew:  # through the function's own bindings after (or around) the loop
            before = len(names)
            for n in body:
                if isinstance(n, cst.Assign) and n not in inside and set(self._bound(n)) & names:
                    names |= self._graph_names(n.value)
            grew = len(names) > before
        for n in self.facts.walk(loop.node):
            if isinstance(n, (cst.Assign, cst.AugAssign, cst.NamedExpr)) and set(self._bound(n)) & names \
                    and n.value is not None and self._graph_names(n.value):
                return True
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _STORING_METHODS \
                    and root_name(n.func.value) in names and any(self._graph_names(a.value) for a in n.args):
                return True
        return False

    @staticmethod
    def _bound(node: cst.Assign | cst.AugAssign | cst.NamedExpr) -> list[str]:
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        return [name for t in targets for name in bound_names(t)]

    def _local(self, scope: FunctionNode, name: str, loop: Loop) -> bool:
        """`name` is bound by `scope` itself: by the loop inside it or as one of its parameters."""
        params = named_params(scope.params)
        return name in params or (loop.function is scope and name in set(loop.writes) | self.facts.mutated_in_loop(loop))

    def _feeds_next_pass(self, loop: Loop, produced: set[str],
                         bindings: dict[str, list[tuple[cst.CSTNode, cst.BaseExpression]]],
                         reads: list[tuple[str, cst.CSTNode]]) -> bool:
        """The same question where statements before the loop run again after it, on the next
        pass of a loop around both (`loss = (w * ce).mean(); loss.backward()` then the scoring loop
        that sets `w`): follow each read to the bindings it can see, in program order, and ask
        whether the loop's value is read before something else replaces it."""
        end = max(self.facts.order(n) for n in self.facts.walk(loop.node))
        around = set(self.facts.ancestors(loop.node))

        def common(node: cst.CSTNode) -> Loop | None:
            shared = [outer for outer in self.facts.enclosing_loops(node) if outer.node in around]
            return max(shared, key=lambda outer: self.facts.order(outer.node), default=None)

        def replaced(name: str, read: cst.CSTNode) -> bool:
            at = self.facts.order(read)
            if at > end:
                return any(end < self.facts.order(b) < at for b, _ in bindings.get(name, ()))
            outer = common(read)
            if outer is None:
                return True
            # a binding earlier in the pass, or the target of the shared loop itself when it holds the
            # read in its body (bound again at the start of each pass: the training loop's `for inputs,
            # labels in train_loader` around a validation loop that reuses the names)
            target_first = isinstance(outer.node, cst.For) and outer.node.body in set(self.facts.ancestors(read))
            return any(self.facts.order(b) < at and (outer.node in set(self.facts.ancestors(b))
                                                     or b is outer.node and target_first)
                       for b, _ in bindings.get(name, ()))

        seen: set[tuple[str, int]] = set()
        work = list(reads)
        while work:
            name, read = work.pop()
            if (name, id(read)) in seen:
                continue
            seen.add((name, id(read)))
            if name in produced and not replaced(name, read):
                return True
            loop_carried = common(read) is not None
            for binding, value in bindings.get(name, ()):
                if self.facts.order(binding) < self.facts.order(read) or loop_carried:
                    work.extend((used, binding) for used in self._graph_names(value))
        return False

    def _graph_names(self, value: cst.BaseExpression) -> set[str]:
        return graph_names(self.facts, value)

    def _flow(self, loop: Loop, value: cst.BaseExpression) -> set[str]:
        """The names a graph in `value` may come through, and the loop's function's name where
        `value` calls it through an attribute (red team 19)."""
        return self._graph_names(value) | self._returned_by_loop_function(loop, value)

    def _returned_by_loop_function(self, loop: Loop, value: cst.CSTNode, skip: cst.Call | None = None) -> set[str]:
        """`{name}` of the loop's function when `value` passes on what a call of it returns
        through a call the name-based flow does not see (red team 19): a method reached through
        an attribute (`mod.training_step(b)["loss"]`, `self.step(b).backward()`) or a function
        returning such a call (`def __call__(self, b): return self.step(b)`, then `obj(b)`). The
        name is not read there, so the flow from the backward back to the loop stopped at
        `mod` / `self` and a summing method was wrapped in no_grad. Methods are matched by name
        (any receiver), as `_callees` does. `skip`: a backward call itself (what it is given is
        read, not what it returns)."""
        func = loop.function
        if func is None or not isinstance(value, cst.BaseExpression):
            return set()
        returning = self._returning_loop_result(func)
        if any(call is not skip and self._may_call(call, returning) for call in graph_calls(self.facts, value)):
            return {func.name.value}
        return set()

    def _returning_loop_result(self, func: FunctionNode) -> set[FunctionNode]:
        """`func` and every function of the unit returning or yielding (a value built from) a call
        of one of these: what each hands out may be what the loop built."""
        cached = self._returning.get(func)
        if cached is not None:
            return cached
        found: set[FunctionNode] = {func}
        grew = True
        while grew:
            grew = False
            for other in self.facts.functions.values():
                if other in found:
                    continue
                returns = [n.value.item if isinstance(n.value, cst.From) else n.value for n in self.facts.walk(other.body)
                           if isinstance(n, (cst.Return, cst.Yield)) and n.value is not None
                           and self.facts.enclosing_function(n) is other]  # `yield self.step(b)`: what a generator hands out
                if any(self._may_call(c, found) for r in returns for c in graph_calls(self.facts, r)):
                    found.add(other)
                    grew = True
        self._returning[func] = found
        return found

    def _may_call(self, call: cst.Call, functions: set[FunctionNode]) -> bool:
        """`call` may run one of `functions`: by `_callees`, or an instance's `__call__` (the
        callee is itself a call, or a name or attribute with no function of the unit behind it)."""
        if any(f in functions for f in self.facts._callees(call)):
            return True
        if not any(isinstance(f, cst.FunctionDef) and f.name.value == "__call__" for f in functions):
            return False
        if isinstance(call.func, cst.Call):
            return True
        qualified = self.facts.qualified_name(call.func) or "" if isinstance(call.func, (cst.Name, cst.Attribute)) else ""
        return isinstance(call.func, (cst.Name, cst.Attribute)) and not self.facts._callees(call) \
            and self.facts.class_named(call.func) is None \
            and not qualified.startswith(("torch.", "numpy.", "builtins.", "math.", "functools.", "itertools."))

    def _done_before(self, node: cst.CSTNode, loop: Loop, start: int) -> bool:
        """`node` runs before the loop and never after it: earlier in the same function, in no
        loop that also holds this one (the training loop that precedes the test episodes)."""
        if self.facts.order(node) >= start or self.facts.enclosing_function(node) is not loop.function:
            return False
        around = set(self.facts.ancestors(loop.node))
        return not any(outer.node in around for outer in self.facts.enclosing_loops(node))

    # --- the rewrite ---------------------------------------------------------------------------

    def _report_wrap_for_review(self, stmt: cst.SimpleStatementLine, torch: str, message: str, description: str,
                                review: str) -> None:
        """A finding whose `no_grad` wrap of `stmt` is right only if nothing else needs its gradients."""
        self.report(stmt, message, fix=Fix(description=description, edits=self._wrap(stmt, torch),
                                           suggestion=self._suggestion(stmt, torch), review=review))

    def _wrap(self, node: cst.CSTNode, torch: str) -> tuple[Edit, ...]:
        """`with torch.no_grad():` before the statement, and every line of it one level deeper
        (continuation lines of multi-line strings excepted: indenting them would change them)."""
        rng = self.facts.position(node)
        unit = self.facts.module.default_indent
        column = rng.start.column
        indent = self.facts.source_line(rng.start.line)[:column]
        edits = [Edit(rng.start.line, column, rng.start.line, column, f"with {torch}.no_grad():\n{indent}{unit}")]
        inside_strings: set[int] = set()
        for n in self.facts.walk(node):
            if isinstance(n, _STRINGS):
                span = self.facts.position(n)
                inside_strings.update(range(span.start.line + 1, span.end.line + 1))
        for line in range(rng.start.line + 1, rng.end.line + 1):
            if line not in inside_strings and self.facts.source_line(line).strip():
                edits.append(Edit(line, 0, line, 0, unit))
        return tuple(edits)

    def _suggestion_of(self, statements: list[cst.BaseStatement], torch: str) -> str:
        unit = self.facts.module.default_indent
        code = "".join(self.facts.module.code_for_node(s.with_changes(leading_lines=())) for s in statements).rstrip("\n")
        return f"with {torch}.no_grad():\n" + "\n".join(unit + l if l.strip() else l for l in code.split("\n"))

    def _suggestion(self, node: cst.CSTNode, torch: str) -> str:
        code = self.facts.module.code_for_node(node.with_changes(leading_lines=())).rstrip("\n")
        unit = self.facts.module.default_indent
        return f"with {torch}.no_grad():\n" + "\n".join(unit + l if l.strip() else l for l in code.split("\n"))


def _rebinds(stmt: cst.CSTNode, name: str) -> bool:
    """`stmt` is the one assignment `name = ...` (a single plain name target)."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return False
    targets = stmt.body[0].targets
    return len(targets) == 1 and isinstance(targets[0].target, cst.Name) and targets[0].target.value == name


def _kept_and_read(owner: Facts, cls: cst.ClassDef | None, func: cst.FunctionDef) -> str:
    """Why `cls` (the class of `forward` `func`) hands one pass's values to later passes ('' if
    not): a method other than `__init__` keeps a computed value on `self` (an assignment, a
    subscript, `setattr`) and a method reads it back."""
    methods = [m for m in (cls.body.body if cls is not None else (func,))
               if isinstance(m, cst.FunctionDef) and m.name.value != "__init__"]
    kept: set[str] = set()
    read: set[str] = set()
    for method in methods:
        for n in owner.walk(method.body):
            if isinstance(n, cst.Assign) and not _plain_value(n.value):
                kept |= {attr for t in n.targets if (attr := _self_attribute(t.target))}
            elif isinstance(n, cst.Call) and _called_name(n) in ("setattr", "getattr", "hasattr") \
                    and len(n.args) >= 2 and owner.code(n.args[0].value) == "self" \
                    and isinstance(n.args[1].value, cst.SimpleString):
                attr = n.args[1].value.evaluated_value
                if _called_name(n) != "setattr":
                    read.add(attr)
                elif len(n.args) > 2 and not _plain_value(n.args[2].value):
                    kept.add(attr)
            elif isinstance(n, cst.Attribute) and (attr := _self_attribute(n)) \
                    and not isinstance(owner.parent(n), cst.AssignTarget) \
                    and not (isinstance(owner.parent(n), cst.Subscript)
                             and isinstance(owner.parent(owner.parent(n)), cst.AssignTarget)):
                read.add(attr)
    if kept & read:
        name = sorted(kept & read)[0]
        return (f"`{cls.name.value if cls is not None else func.name.value}` keeps `self.{name}` across "
                "calls and reads it back: built under no_grad it would carry no graph, and later training "
                "passes through it would not reach the parameters it was computed from")
    return ""


def _hand_memo_name(owner: Facts, func: cst.FunctionDef) -> str:
    """The container `func` does not bind (a module-level or enclosing name) into which it stores a
    computed value and from which it reads back (a subscript load, `.get`, an `in` test,
    `.setdefault`): a memo kept by hand. '' if none."""
    stored: set[str] = set()
    read: set[str] = set()

    def root(expr: cst.BaseExpression) -> str | None:
        while isinstance(expr, cst.Subscript):
            expr = expr.value
        if isinstance(expr, cst.Name) and expr.value not in ("self", "cls") and not binds_locally(func, expr.value):
            return expr.value
        return None

    for n in owner.walk(func.body):
        if isinstance(n, cst.Assign) and not _plain_value(n.value):
            stored |= {name for t in n.targets if isinstance(t.target, cst.Subscript) and (name := root(t.target))}
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and (name := root(n.func.value)):
            if n.func.attr.value == "setdefault" and len(n.args) > 1 and not _plain_value(n.args[1].value):
                stored.add(name)
                read.add(name)
            elif n.func.attr.value in _STORING_METHODS and n.args and not all(_plain_value(a.value) for a in n.args):
                stored.add(name)
            elif n.func.attr.value in ("get", "pop", "__getitem__"):
                read.add(name)
        elif isinstance(n, cst.Subscript) and (name := root(n)) \
                and not isinstance(owner.parent(n), cst.AssignTarget):
            read.add(name)
        elif isinstance(n, cst.ComparisonTarget) and isinstance(n.operator, (cst.In, cst.NotIn)) \
                and (name := root(n.comparator)):
            read.add(name)
    both = sorted(stored & read)
    return both[0] if both else ""


def _plain_value(value: cst.BaseExpression) -> bool:
    """A value that carries no graph: a number or string literal, `None`/`True`/`False`, a
    detached or host copy (`.detach()`, `.item()`, `.tolist()`, `.numpy()`)."""
    if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(value, cst.Name):
        return value.value in ("None", "True", "False")
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
        and value.func.attr.value in ("detach", "item", "tolist", "numpy")


def _self_attribute(expr: cst.BaseExpression) -> str | None:
    """`outs` for `self.outs` and `self.outs[k]`; None for anything else."""
    while isinstance(expr, cst.Subscript):
        expr = expr.value
    return expr.attr.value if isinstance(expr, cst.Attribute) and is_self_attr(expr, expr.attr.value) else None


def _kept_attribute(expr: cst.BaseExpression) -> str | None:
    """`total` for `Tally.total`, `stats.total` and `self.cache[k]`'s `cache`: an attribute of
    an object named by a variable; None for anything else."""
    while isinstance(expr, cst.Subscript):
        expr = expr.value
    return expr.attr.value if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) else None


# Reads that give a number or text of a tensor, never its graph.
_GRAPHLESS_BUILTINS = frozenset({"builtins.print", "builtins.float", "builtins.int", "builtins.str", "builtins.repr",
                                 "builtins.format", "builtins.round", "builtins.len", "builtins.bool", "math.isfinite",
                                 "math.isnan"})
_GRAPHLESS_METHODS = frozenset({"item", "tolist", "detach", "numpy", "__format__"})


def _graphless_read(facts: Facts, call: cst.Call, inner: cst.CSTNode) -> bool:
    """`call` gives no graph of `inner` (its argument or receiver): `print(x)`, `float(x)`, `x.item()`,
    `x.detach()`, `logger.info("%s", x)` is not counted (a logger's handler is out of sight)."""
    if isinstance(call.func, cst.Attribute) and call.func is inner:
        return call.func.attr.value in _GRAPHLESS_METHODS
    return (facts.qualified_name(call.func) or "") in _GRAPHLESS_BUILTINS and any(a is inner for a in call.args) \
        or (facts.qualified_name(call.func) or "") in _GRAPHLESS_BUILTINS and isinstance(inner, cst.Arg)


def _back_propagates(facts: Facts, call: cst.Call) -> bool:
    return isinstance(call.func, cst.Attribute) and call.func.attr.value == "backward" \
        or (facts.qualified_name(call.func) or "") in ("torch.autograd.grad", "torch.autograd.backward")


def _hands_to_backward(facts: Facts, call: cst.Call) -> bool:
    """`call` runs a function (of any cell or local module) whose body back-propagates."""
    for callee in facts._callees(call):
        owner = facts.owner_of(callee)
        if any(_back_propagates(owner, c) for c in owner.calls_in(callee.body)):
            return True
    return False


def _turns_grad_off(facts: Facts, body: cst.CSTNode) -> bool:
    return any(_grad_off_with(facts, n) for n in facts.walk(body))


def _grad_off_with(facts: Facts, node: cst.CSTNode) -> bool:
    return isinstance(node, cst.With) and any(is_grad_off_call(facts, item.item) for item in node.items)


def _given_objects_called(facts: Facts, loop: Loop) -> str:
    """The code of a call in `loop` on an object its function is handed (`net(x)`,
    `model.predict(x)` with `net`/`model` parameters), '' if none: what it runs is whatever the
    callers pass, in later cells too."""
    func = loop.function
    if not isinstance(func, cst.FunctionDef):
        return ""
    params = named_params(func.params)
    for call in facts.calls_in(loop.node.body):
        root = root_name(call.func)
        if root in params and root not in facts.names_written(loop.node.body):
            return facts.code(call.func)
    return ""


def _grad_asking_forward(unit: Facts) -> str:
    """`Class.forward` (or `__call__`) of a class `unit` defines whose body asks for autograd
    (`torch.autograd.grad`, `requires_grad_`, a tensor hook, a graph-state read; red team 29b: a
    later cell's energy model differentiating its output), '' if none."""
    for node in unit.walk(unit.module):
        if not isinstance(node, cst.ClassDef) or not isinstance(node.body, cst.IndentedBlock):
            continue
        for method in node.body.body:
            if isinstance(method, cst.FunctionDef) and method.name.value in ("forward", "__call__") \
                    and _asks_for_grad(unit, method.body, training_path=False):
                return f"{node.name.value}.{method.name.value}"
    return ""


_ITERATION_METHODS = frozenset({"__iter__", "__next__", "__getitem__"})


def _grad_asking_iteration(unit: Facts) -> str:
    """The name of iteration code `unit` defines that back-propagates or asks for autograd, itself or
    through what it calls ('' if none): a generator function, a class's `__iter__` / `__next__` /
    `__getitem__`, a function handed to a loader as `collate_fn` (red team 47)."""
    collates = {a.value.value for n in unit.walk(unit.module) if isinstance(n, cst.Call) for a in n.args
                if a.keyword is not None and a.keyword.value == "collate_fn" and isinstance(a.value, cst.Name)}
    for node in unit.walk(unit.module):
        if not isinstance(node, cst.FunctionDef):
            continue
        name = node.name.value
        generator = any(isinstance(n, (cst.Yield)) for n in unit.walk(node.body, into_scopes=False))
        if (generator or name in _ITERATION_METHODS or name in collates) and _reaches_grad(unit, node):
            return name
    return ""


def _grad_asking_patch(unit: Facts) -> str:
    """The code of an attribute target `unit` binds to one of its functions (or a lambda) that asks
    for autograd (`Net.forward = forward_with_slope`, `setattr(model, "forward", f)`, red team 29b),
    '' if none: code a loop of an earlier cell runs through that attribute changes after it."""
    for node in unit.walk(unit.module):
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets if isinstance(t.target, cst.Attribute)]
            value = node.value
        elif isinstance(node, cst.Call) and (unit.qualified_name(node.func) or "") == "builtins.setattr" \
                and len(node.args) == 3:
            targets, value = [node.args[0].value], node.args[2].value
        else:
            continue
        if not targets:
            continue
        if isinstance(value, cst.Call) and value.args:  # `types.MethodType(f, obj)`, `functools.partial(f, ...)`
            value = value.args[0].value
        if isinstance(value, cst.Lambda) and _asks_for_grad(unit, value.body, training_path=False):
            return unit.code(targets[0])
        func = unit.functions.get(value.value) if isinstance(value, cst.Name) else None
        if func is not None and _asks_for_grad(unit, func.body, training_path=False):
            return unit.code(targets[0])
    return ""


def _reaches_grad(facts: Facts, func: FunctionNode) -> bool:
    """`func`, or a function it calls (followed 50 deep at most), back-propagates or asks for autograd."""
    work, seen = [(facts, func)], {id(func)}
    while work:
        owner, current = work.pop()
        if _asks_for_grad(owner, current.body):
            return True
        for call in owner.calls_in(current.body):
            for callee in owner._callees(call):
                if id(callee) not in seen and len(seen) < 50:
                    seen.add(id(callee))
                    work.append((owner.owner_of(callee), callee))
    return False


def _asks_for_grad(facts: Facts, body: cst.CSTNode, training_path: bool = True) -> bool:
    """`body` reads or needs what only grad mode gives: `.requires_grad`/`.grad_fn`,
    `retain_grad()`, `register_hook`, `requires_grad_()`, `torch.autograd.grad`, `torch.enable_grad`,
    a tensor made with `requires_grad=True`; with `training_path`, also `backward()` and `.grad`."""
    methods = _NEEDS_GRAD_METHODS if training_path else _NEEDS_GRAD_METHODS - {"backward"}
    for n in facts.walk(body):
        if isinstance(n, cst.Attribute) and n.attr.value in (_GRAPH_STATE | {"grad"} if training_path else _GRAPH_STATE):
            return True  # (`out.grad_fn is not None` tells the two modes apart)
        if isinstance(n, cst.Attribute) and n.attr.value in methods:
            return True  # called or handed on as a value: `map(torch.Tensor.backward, [loss])`, `bw = loss.backward`
        if isinstance(n, cst.Call):
            if (facts.qualified_name(n.func) or "") in _NEEDS_GRAD_CALLS:
                return True
            if any(a.keyword is not None and a.keyword.value == "requires_grad"
                   and not (isinstance(a.value, cst.Name) and a.value.value == "False") for a in n.args):
                return True  # (`Variable(y, requires_grad=False)` asks for no gradient)
    return False


def _declared(facts: Facts, func: FunctionNode, kind: type[cst.Global] | type[cst.Nonlocal]) -> set[str]:
    """Names `func` itself declares `global` (or `nonlocal`)."""
    return {item.name.value for n in facts.walk(func.body) if isinstance(n, kind)
            and facts.enclosing_function(n) is func for item in n.names}


def _paired(target: cst.BaseExpression, value: cst.BaseExpression) -> list[tuple[set[str], cst.BaseExpression]]:
    """`a, b = f(x), g(y)` binds `a` to `f(x)` alone; any other target takes the whole value."""
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
            and len(target.elements) == len(value.elements) \
            and not any(isinstance(el, cst.StarredElement) for el in (*target.elements, *value.elements)):
        return [(set(bound_names(t.value)), v.value) for t, v in zip(target.elements, value.elements)]
    return [(set(bound_names(target)), value)]


def _helper_receiver(facts: Facts, call: cst.Call) -> set[str]:
    """The receiver of `accelerator.backward(loss)` when it is an object built from a training
    helper known to back-propagate what it is given and keep no tensors (`Accelerator()`,
    `Fabric()`): an evaluation loop calling its other methods (`gather`) feeds nothing to that
    backward. Any other class (the project's own, an unknown library's) may keep what its other
    methods receive and add it to the loss; a tensor receiver (`out.backward(grad)`) carries its graph."""
    func = call.func
    if not call.args or not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
        return set()
    name = func.value.value
    values = facts.assigned_values(name)
    if not values or not all(isinstance(v, cst.Call) and _graphless_helper(facts, v.func) for v in values):
        return set()
    return {name}


# Training helpers whose `backward(loss)` only back-propagates `loss` and whose other methods keep no tensors.
_GRAPHLESS_HELPERS = frozenset({"Accelerator", "Fabric"})
_HELPER_LIBRARIES = frozenset({"accelerate", "lightning", "lightning_fabric", "pytorch_lightning"})


def _graphless_helper(facts: Facts, func: cst.BaseExpression) -> bool:
    """`func` names one of those helpers' classes (`accelerate.Accelerator`, `lightning.Fabric`)."""
    qualified = facts.qualified_name(func) or ""
    return qualified.split(".")[0] in _HELPER_LIBRARIES and qualified.rpartition(".")[2] in _GRAPHLESS_HELPERS


def _called_name(call: cst.Call) -> str | None:
    func = call.func
    return func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None


def _plumbing(facts: Facts, call: cst.Call) -> bool:
    """A call that cannot record a graph of the model where no model output requires grad: no
    code of the program behind it, no module, nothing read from `self` (where parameters live):
    `torch.cat(batch[-1])`, `preds.to('cpu').data.numpy()`, `np.concatenate(values)`. Lets a
    helper whose model calls all run under `no_grad` count as grad-free beside its data plumbing."""
    if any(not _host_helper(facts, c) for c in facts._callees(call)) or facts.kind(call.func) is Kind.MODULE:
        return False
    return not any(isinstance(n, cst.Name) and n.value == "self" for n in facts.walk(call))


def _host_helper(facts: Facts, func: FunctionNode) -> bool:
    """Program code that cannot run a model: NumPy / pure Python alone (`Facts.host_only`), calling
    no other function of the program and none it is handed (`Dataset._to_one_hot(chars, table)`)."""
    owner = facts.owner_of(func)
    params = param_names(func)
    return owner.host_only(func) and not any(
        owner._callees(c) or isinstance(c.func, cst.Name) and c.func.value in params for c in owner.calls_in(func.body))


def _hook_registration(units: list[Facts], here: Facts | None) -> str:
    """Why one of `units` registers a module hook ('' if none does): by a call of a registration
    method or a global registration, or out of name (`hook_registered_out_of_name`)."""
    for facts in units:
        for call in facts.calls_in(facts.module):
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in _MODULE_HOOKS \
                    or (facts.qualified_name(func) or "") in _GLOBAL_HOOKS:
                where = "" if facts is here else " of an earlier cell or a local module"
                return (f"`{facts.code(func)}(...)`{where} registers a module hook: it runs on the "
                        "outputs of every forward pass this loop makes, and what it does with them (keeps "
                        "them for a later backward, registers tensor hooks) needs the graph no_grad drops")
        found = hook_registered_out_of_name(facts, _MODULE_HOOKS)
        if found:
            return (f"`{found}` registers a module hook out of name: it runs on the outputs of every "
                    "forward pass this loop makes, and what it does with them may need the graph no_grad drops")
    return ""



_MEMOISING = frozenset({"functools.lru_cache", "functools.cache", "functools.cached_property"})


def _memoising(facts: Facts, expr: cst.BaseExpression) -> bool:
    """`lru_cache`, `functools.cache`, `lru_cache(maxsize=...)`: a decorator (or wrapping call)
    that keeps the results it hands back."""
    func = expr.func if isinstance(expr, cst.Call) else expr
    return (facts.qualified_name(func) or "") in _MEMOISING


def _bound_to_memo(facts: Facts, name: str) -> bool:
    """`name = functools.lru_cache(maxsize=None)(fn)` / `name = functools.cache(fn)` at the
    top of the unit: calling `name` reads a cache."""
    for node in facts.walk(facts.module):
        if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call) \
                and any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets):
            wrapper = node.value.func
            if _memoising(facts, wrapper) or isinstance(wrapper, cst.Call) and _memoising(facts, wrapper):
                return True
    return False

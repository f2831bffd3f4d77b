"""torch functions that change their arguments although their names do not end in `_`.

The analysis takes a torch function for one that only reads its arguments unless it is in
place by name (`relu_`, `index_add_`) or given `inplace=True` / `out=`. These are the
exceptions found by red team 14: an `inplace` flag passed by position
(`F.leaky_relu(x, 0.2, True)`), and the utilities that rebuild a module's parameters
(pruning, parametrizations, weight / spectral norm, `vector_to_parameters`): after
`prune.l1_unstructured(layer, "weight", amount=0.2)` the loop reads another `layer.weight`.
"""

from __future__ import annotations

import libcst as cst

# `torch.nn.functional` activations and dropouts: the position of their `inplace` parameter.
_INPLACE_AT = {
    "relu": 1, "relu6": 1, "selu": 1, "silu": 1, "mish": 1, "hardswish": 1, "hardsigmoid": 1,
    "elu": 2, "celu": 2, "leaky_relu": 2,
    "hardtanh": 3, "threshold": 3, "dropout": 3, "alpha_dropout": 3, "feature_alpha_dropout": 3,
    "dropout1d": 3, "dropout2d": 3, "dropout3d": 3,
    "rrelu": 4,
}

# Modules whose every function (but the predicates) changes the module it is given.
_MODULE_CHANGING_PREFIXES = ("torch.nn.utils.prune.", "torch.nn.utils.parametrize.",
                             "torch.nn.utils.parametrizations.")
_PREDICATES = frozenset({"is_pruned", "is_parametrized", "type_before_parametrizations", "transfer_parametrizations_and_params"})
# Single functions, with the positions of the arguments they change.
_CHANGED_AT = {
    "torch.nn.utils.weight_norm": (0,), "torch.nn.utils.remove_weight_norm": (0,),
    "torch.nn.utils.spectral_norm": (0,), "torch.nn.utils.remove_spectral_norm": (0,),
    "torch.nn.utils.weight_norm.weight_norm": (0,), "torch.nn.utils.weight_norm.remove_weight_norm": (0,),
    "torch.nn.utils.spectral_norm.spectral_norm": (0,), "torch.nn.utils.spectral_norm.remove_spectral_norm": (0,),
    "torch.nn.utils.vector_to_parameters": (1,), "torch.nn.utils.convert_parameters.vector_to_parameters": (1,),
    "torch.nn.utils.convert_conv2d_weight_memory_format": (0,),
    "torch.nn.utils.convert_conv3d_weight_memory_format": (0,),
    "torch.optim.swa_utils.update_bn": (1,),
}


def torch_changed_arguments(qualified: str, call: cst.Call) -> list[cst.BaseExpression]:
    """The arguments of `call` (to the torch function `qualified`) it changes although it is not
    in place by name: an `inplace` flag given by position, a module handed to pruning, a
    parametrization, weight / spectral norm or `vector_to_parameters`."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    last = qualified.rsplit(".", 1)[-1]
    if qualified.startswith("torch.nn.functional.") and last in _INPLACE_AT:
        at = _INPLACE_AT[last]
        flag = positional[at] if at < len(positional) else None
        if flag is not None and not (isinstance(flag, cst.Name) and flag.value in ("False", "None")):
            return positional[:1]
        return []
    if qualified.startswith(_MODULE_CHANGING_PREFIXES) and last not in _PREDICATES:
        return [*positional[:1], *(a.value for a in call.args if a.keyword is not None and a.keyword.value in (
            "module", "parameters"))]
    return [positional[at] for at in _CHANGED_AT.get(qualified, ()) if at < len(positional)] \
        + [a.value for a in call.args if a.keyword is not None and a.keyword.value in ("module", "parameters", "model")
           and qualified in _CHANGED_AT]

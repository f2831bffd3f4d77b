"""Logging library calls that copy a tensor argument to the host, by a closed list of functions
whose behaviour is known from their source:

- TensorBoard (`torch.utils.tensorboard` and tensorboardX) `SummaryWriter.add_histogram`,
  `add_image`, `add_images`, `add_embedding`, `add_pr_curve`: every tensor goes through
  `make_np` (`x.detach().cpu().numpy()`); `add_scalars` converts each value of its dict the way
  `add_scalar` does; `add_histogram_raw` writes its statistics into a protobuf (Python numbers).
  (`add_scalar` itself is `host_sync`'s own older branch.)
- `wandb.log(dict)`: each tensor value is converted to numpy (`val_to_json`);
  `wandb.Histogram(t)` takes `np.histogram` of the tensor's values.
- `mlflow.log_metric(key, value)` / `mlflow.log_metrics(dict)`: the value goes through
  `convert_metric_value_to_float_if_possible` (`float(t)`).

Each gives the argument expressions a call copies: a tensor among them that lives on the device
is a device-to-host copy, and the CPU waits for every queued kernel first.
"""

from __future__ import annotations

import libcst as cst

from ..facts import Facts

# method -> (position, keyword) of each argument the writer copies to the host
_WRITER_ARGUMENTS: dict[str, tuple[tuple[int, str], ...]] = {
    "add_histogram": ((1, "values"),),
    "add_image": ((1, "img_tensor"),),
    "add_images": ((1, "img_tensor"),),
    "add_embedding": ((0, "mat"), (2, "label_img")),
    "add_pr_curve": ((1, "labels"), (2, "predictions")),
    "add_histogram_raw": ((1, "min"), (2, "max"), (3, "num"), (4, "sum"), (5, "sum_squares"),
                          (6, "bucket_limits"), (7, "bucket_counts")),
}
_WRITER_DICTS: dict[str, tuple[int, str]] = {"add_scalars": (1, "tag_scalar_dict")}
_FUNCTION_ARGUMENTS: dict[str, tuple[tuple[int, str], ...]] = {
    "wandb.Histogram": ((0, "sequence"),),
    "mlflow.log_metric": ((1, "value"),),
}
_FUNCTION_DICTS: dict[str, tuple[int, str]] = {"wandb.log": (0, "data"), "mlflow.log_metrics": (0, "metrics")}
SUMMARY_WRITERS = frozenset({"torch.utils.tensorboard.SummaryWriter", "torch.utils.tensorboard.writer.SummaryWriter",
                             "tensorboardX.SummaryWriter", "tensorboardX.writer.SummaryWriter"})


def summary_writer(facts: Facts, receiver: cst.BaseExpression) -> bool:
    """`writer` / `self.writer` is only ever bound to a TensorBoard `SummaryWriter(...)`."""
    if isinstance(receiver, cst.Name):
        values = facts.assigned_values(receiver.value)
        if not values and not facts.binds(receiver.value):
            earlier = facts.prior.value(receiver.value)
            values = [earlier[1]] if earlier is not None else []
            facts = earlier[0] if earlier is not None else facts
    elif isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name) and receiver.value.value == "self":
        values = facts.assigned_values("self." + receiver.attr.value)
    else:
        return False
    return bool(values) and all(isinstance(v, cst.Call) and (facts.qualified_name(v.func) or "") in SUMMARY_WRITERS
                                for v in values)


def logged_values(facts: Facts, call: cst.Call) -> tuple[str, list[cst.BaseExpression]] | None:
    """What a logging call of the closed list copies to the host, with a few words on how; None
    for any other call."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in (*_WRITER_ARGUMENTS, *_WRITER_DICTS) \
            and summary_writer(facts, func.value):
        method = func.attr.value
        if method in _WRITER_DICTS:
            return "TensorBoard converts each value to a Python number", _dict_values(_argument(call, *_WRITER_DICTS[method]))
        return "TensorBoard converts it to NumPy", [a for place in _WRITER_ARGUMENTS[method]
                                                    if (a := _argument(call, *place)) is not None]
    qualified = facts.qualified_name(func) or ""
    if qualified in _FUNCTION_ARGUMENTS:
        how = "W&B histograms its values in NumPy" if qualified.startswith("wandb.") else "MLflow converts it to a float"
        return how, [a for place in _FUNCTION_ARGUMENTS[qualified] if (a := _argument(call, *place)) is not None]
    if qualified in _FUNCTION_DICTS:
        how = "W&B converts each tensor value to NumPy" if qualified.startswith("wandb.") \
            else "MLflow converts each value to a float"
        return how, _dict_values(_argument(call, *_FUNCTION_DICTS[qualified]))
    return None


def _argument(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if any(a.star for a in call.args):
        return None
    named = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)
    return named if named is not None else positional[position].value if position < len(positional) else None


def _dict_values(expr: cst.BaseExpression | None) -> list[cst.BaseExpression]:
    """The values of a dict display (`{"loss": loss, "acc": acc}`); nothing for anything else."""
    if not isinstance(expr, cst.Dict):
        return []
    return [e.value for e in expr.elements if isinstance(e, cst.DictElement)]

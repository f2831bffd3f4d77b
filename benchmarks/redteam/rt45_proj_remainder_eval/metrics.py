"""Per-batch error terms. `squeeze()` is used the way many eval scripts do: it also drops the batch axis
when the batch has one row."""


def batch_errors(pred, y):
    err = (pred.squeeze() - y.squeeze()).abs()
    return err, err.dim()

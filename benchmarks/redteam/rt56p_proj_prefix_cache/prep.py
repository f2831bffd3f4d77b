"""Prepares the prefix cache with dropout off (eval mode), then puts the model back in train mode."""


def warm(model, batch):
    model.eval()
    model.prefill(batch)
    model.train()


def peek(model, idx):
    """The model's prediction for the batch, in eval mode; kept on the model for the loss."""
    model.eval()
    model.last = model(idx)
    model.train()
    return model.last.argmax(-1)

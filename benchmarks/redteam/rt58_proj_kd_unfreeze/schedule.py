def freeze(model):
    model.backbone.requires_grad_(False)


def maybe_unfreeze(model, epoch, cfg):
    if epoch == cfg['unfreeze_at']:
        model.backbone.requires_grad_(True)
        return True
    return False


def backbone_frozen_bn(model):
    # BatchNorm statistics stay those of the pretrained backbone, even once its weights are trained again
    model.backbone.eval()

"""Image-level functional ops in the style of torchvision.transforms.functional."""
import torch


def hflip(img):
    return img.flip(-1)


def normalize(img, mean, std):
    return (img - mean) / std


def pad(img, padding, fill=0.0):
    # padding = [left, top, right, bottom], as torchvision orders it
    left, top, right, bottom = padding
    out = img.new_full(img.shape[:-2] + (img.shape[-2] + top + bottom, img.shape[-1] + left + right), fill)
    out[..., top:top + img.shape[-2], left:left + img.shape[-1]] = img
    return out

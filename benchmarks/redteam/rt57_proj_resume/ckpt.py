"""Checkpoints kept in memory: serialized bytes, or a dict of references (the quick way)."""
import io

import torch


def save_bytes(model, opt, sched, step, extra):
    buf = io.BytesIO()
    torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'sched': sched.state_dict(),
                'step': step, 'extra': extra}, buf)
    return buf.getvalue()


def load_bytes(blob, model, opt, sched):
    state = torch.load(io.BytesIO(blob), weights_only=False)
    model.load_state_dict(state['model'])
    opt.load_state_dict(state['opt'])
    sched.load_state_dict(state['sched'])
    return state['step'], state['extra']


def snapshot_refs(model, step, loss):
    return {'model': model.state_dict(), 'step': step, 'loss': loss}

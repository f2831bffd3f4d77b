"""Greedy speculative decoding: the draft proposes k tokens, the target checks them in one pass, both caches
are rolled back to the accepted length. Also a sampling variant with the usual accept / resample rule."""
import torch


@torch.no_grad()
def greedy_target(target, prompt, n_new):
    target.reset_cache()
    logits = target(prompt, use_cache=True)
    out = prompt[0].tolist()
    for _ in range(n_new):
        nxt = logits[0, -1].argmax()
        out.append(nxt.item())
        logits = target(nxt.view(1, 1), use_cache=True)
    return out


@torch.no_grad()
def speculative_greedy(target, draft, prompt, n_new, k=3):
    """Both caches always cover every committed token but the last one."""
    target.reset_cache()
    draft.reset_cache()
    target(prompt[:, :-1], use_cache=True)
    draft(prompt[:, :-1], use_cache=True)
    out = prompt[0].tolist()
    last = prompt[:, -1:]
    accepted_total = 0
    calls = 0
    while len(out) < prompt.shape[1] + n_new:
        proposal = []
        d_in = last
        for _ in range(k):
            d_in = draft(d_in, use_cache=True)[:, -1:].argmax(-1)
            proposal.append(d_in)
        prop = torch.cat(proposal, 1)
        v_logits = target(torch.cat([last, prop], 1), use_cache=True)
        calls += 1
        target_pred = v_logits.argmax(-1)
        agree = (target_pred[:, :k] == prop)[0].tolist()
        n_ok = agree.index(False) if False in agree else k
        accepted_total += n_ok
        out.extend(prop[0, :n_ok].tolist())
        out.append(target_pred[0, n_ok].item())
        committed = len(out) - 1
        target.truncate(committed)
        draft.truncate(committed)
        if draft.cache_len() < committed:
            draft(prop[:, -1:], use_cache=True)
        last = torch.tensor([[out[-1]]], device=prompt.device)
    return out[:prompt.shape[1] + n_new], accepted_total, calls


@torch.no_grad()
def speculative_sample(target, draft, prompt, n_new, gen, k=3):
    seq = prompt[0].tolist()
    accepts = 0
    while len(seq) < prompt.shape[1] + n_new:
        ctx = torch.tensor([seq], device=prompt.device)
        qs, toks = [], []
        cur = ctx
        for _ in range(k):
            q = draft(cur)[0, -1].softmax(-1)
            tok = torch.multinomial(q.cpu(), 1, generator=gen).item()
            qs.append(q)
            toks.append(tok)
            cur = torch.cat([cur, torch.tensor([[tok]], device=prompt.device)], 1)
        p_all = target(cur)[0, -k - 1:].softmax(-1)
        for i, tok in enumerate(toks):
            ratio = (p_all[i, tok] / qs[i][tok]).item()
            if torch.rand(1, generator=gen).item() < min(1.0, ratio):
                seq.append(tok)
                accepts += 1
            else:
                resid = (p_all[i] - qs[i]).clamp_min(0)
                resid = resid / resid.sum()
                seq.append(torch.multinomial(resid.cpu(), 1, generator=gen).item())
                break
        else:
            seq.append(torch.multinomial(p_all[-1].cpu(), 1, generator=gen).item())
    return seq[:prompt.shape[1] + n_new], accepts

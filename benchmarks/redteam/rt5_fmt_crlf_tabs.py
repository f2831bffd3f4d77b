# corpus: runnable
# Windows line endings, tab indentation, non-ASCII names, one-line loops, semicolons,
# `# type:` comments and a __main__ guard, around the usual per-step accumulations.
import torch
import torch.nn as nn

torch.manual_seed(0); torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
modèle = nn.Linear(3, 2).to(device)
opt = torch.optim.SGD(modèle.parameters(), lr=0.1)
données = [(torch.randn(4, 3), torch.randint(0, 2, (4,))) for _ in range(4)]


def entraîner(époques):
	for é in range(époques):
		perte_totale = 0.0  # type: float
		for xb, yb in données:
			perte = nn.functional.cross_entropy(modèle(xb.to(device)), yb.to(device)); opt.zero_grad(); perte.backward(); opt.step()
			perte_totale += perte.item()
		print("époque", é, round(perte_totale, 5))


def évaluer():
	modèle.eval()
	justes = 0
	for xb, yb in données: justes += (modèle(xb.to(device)).argmax(1) == yb.to(device)).sum().item()
	return justes


if __name__ == "__main__":
	entraîner(2)
	print("justes", évaluer())
	for pas in range(2):
		masque = torch.ones(3, device=device)  # type: torch.Tensor
		print(pas, (masque * pas).tolist())

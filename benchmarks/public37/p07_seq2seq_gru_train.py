# Public check 37, p07: GRU encoder-decoder for translation, trained with teacher forcing
# (the decoder reads the shifted target), helpers in three files.
# Source: https://github.com/gyuwon12/DeepLearning-basic-study Encoder-Decoder/
#   models.py @ 4f7cd702 (Encoder, Decoder, EncoderDecoder, init_seq2seq, Seq2SeqEncoder,
#   Seq2SeqDecoder, Seq2Seq; the attention / transformer classes not copied), loss.py @ aadae47b
#   (My_Loss), train.py @ aadae47b (train_model), main.py @ 4f7cd702 (main).
# Changes to make it run on the CPU in seconds:
# - the files are joined in one module; `import utils` / `import test` (not used by the copied
#   classes) dropped; `data_preprocessing.make_dataloader` (not fetched; a French-English corpus)
#   replaced by a stand-in DataLoader of seeded random token triples (encoder input, decoder input =
#   <bos> + target[:-1], target) with padding 0; vocab sizes 30 / 40.
# - main's hyperparameters: batch_size 4096 -> 8, epochs 30 -> 3, sequence_length 32 -> 6,
#   num_hiddens 512 -> 16, embed_size 256 -> 8; the Transformer model built after the GRU one
#   in main (and overwriting it) dropped: the GRU Seq2Seq is the one train_model's calls fit;
#   the `clipper` argument (train.py at this commit takes none) dropped; a checksum print.
# - the Korean explanatory comments and the long docstrings of the copied classes dropped (code unchanged).
import torch
import torch.nn as nn
import torch.optim as optim
from torch.nn import functional as F
from torch.utils.data import DataLoader, TensorDataset


# ---- models.py ----
class Encoder(nn.Module):
    """The base encoder interface for the encoder-decoder architecture."""
    def __init__(self):
        super(Encoder, self).__init__()

    def forward(self, X, *args):
        raise NotImplementedError
    
class Decoder(nn.Module):
    """We add an additional init_state method to convert the encoder output (enc_all_outputs) into the encoded state."""
    def __init__(self):
        super(Decoder, self).__init__()
        
    def init_state(self, enc_all_outputs, *args):
        raise NotImplementedError

    def forward(self, X, state):
        raise NotImplementedError
    
class EncoderDecoder(nn.Module):
    """The base class for the encoder-decoder architecture."""
    def __init__(self, encoder, decoder):
        super(EncoderDecoder, self).__init__()
        self.encoder = encoder
        self.decoder = decoder
        
    def forward(self, enc_X, dec_X, *args):
        enc_all_outputs = self.encoder(enc_X, *args)
        dec_state = self.decoder.init_state(enc_all_outputs, *args)
        return self.decoder(dec_X, dec_state)[0]
    
def init_seq2seq(module):
    """Initialize weights for seq2seq"""
    if type(module) == nn.Linear:
        nn.init.xavier_uniform_(module.wieght)
    if type(module) == nn.GRU:
        for param in module._flat_weights_names:
            if "weight" in param:
                nn.init.xavier_uniform_(module._parameters[param])
                
                
class Seq2SeqEncoder(Encoder):
    """The RNN encoder for sequence to sequence learning."""
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0.0):
        super(Seq2SeqEncoder, self).__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size, num_hiddens, num_layers, dropout=dropout, bidirectional=False)
        self.apply(init_seq2seq)
        
    def forward(self, X, *args):
        embs = self.embedding(X.t().type(torch.int64))
        outputs, state = self.rnn(embs)
        return outputs, state
    
class Seq2SeqDecoder(Decoder):
    """Some Information about Seq2SeqDecoder"""
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0.0):
        super(Seq2SeqDecoder, self).__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size+num_hiddens, num_hiddens, num_layers, dropout=dropout, bidirectional=False)
        self.fc = nn.LazyLinear(vocab_size)
        self.apply(init_seq2seq)
    
    def init_state(self, enc_all_outputs, *args):
        return enc_all_outputs
        
    def forward(self, X, state):
        embs = F.relu(self.embedding(X.t().type(torch.int64)))
        enc_outputs, hidden_state = state
        context = enc_outputs[-1]
        context = context.repeat(embs.shape[0], 1, 1)
        embs_and_context = torch.cat((embs, context), -1)
        outputs, hidden_state = self.rnn(embs_and_context, hidden_state)
        outputs = self.fc(outputs).swapaxes(0, 1)
        return outputs, [enc_outputs, hidden_state]
    
class Seq2Seq(EncoderDecoder):
    def __init__(self, encoder, decoder, tat_pad=None, lr=None):
        super().__init__(encoder, decoder)


# ---- loss.py ----
class My_Loss(nn.Module):
    """Classfication Loss."""
    def __init__(self, device):
        super().__init__()
        self.Loss = nn.CrossEntropyLoss().to(device)

    def forward(self, hypothesis, Y):
        loss = self.Loss(hypothesis, Y)
        mask = (Y.reshape(-1) != 0).type(torch.float32)
        return (loss * mask).sum() / mask.sum()


# ---- train.py ----
def train_model(model, device, len_tar_vocab, train_loader, optimizer, criterion, num_epochs):
    for epoch in range(num_epochs): 
        for i, (encoder_inputs, decoder_inputs, decoder_targets)  in enumerate(train_loader): 
            encoder_inputs = encoder_inputs.to(device)
            decoder_inputs = decoder_inputs.to(device)
            decoder_targets = decoder_targets.to(device)
            
            # Encoder Forward
            enc_all_outputs = model.encoder(encoder_inputs)
            
            # Encoder state -> Decoder
            state = model.decoder.init_state(enc_all_outputs)
            
            # Decoder Forward
            decoder_outputs, decoder_state = model.decoder(decoder_inputs, state)
            
            # loss 계산
            loss = criterion(decoder_outputs.reshape(-1, len_tar_vocab), decoder_targets.view(-1))
            optimizer.zero_grad() 
            loss.backward()
            optimizer.step()
            
            # 로그 출력
            if i % 100 == 0:
                print('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'
                      .format(epoch+1, num_epochs, i+1, len(train_loader), loss.item()))
    
    print('End Learning')   


# ---- stand-in for data_preprocessing.make_dataloader (not part of the source) ----
def make_dataloader(batch_size, sequence_length):
    g = torch.Generator().manual_seed(1)
    src = torch.randint(1, 30, (32, sequence_length), generator=g)
    tgt = torch.randint(3, 40, (32, sequence_length), generator=g)
    tgt[:, -2:] = 0  # padding
    dec_in = torch.cat([torch.full((32, 1), 1), tgt[:, :-1]], dim=1)  # <bos> + shifted target
    loader = DataLoader(TensorDataset(src, dec_in, tgt), batch_size=batch_size, shuffle=True, generator=g)
    return loader, 30, 40


# ---- main.py ----
batch_size = 8
epochs = 3
sequence_length = 6
num_hiddens = 16
embed_size = 8
num_layers = 2 
dropout = 0.1
learning_rate = 0.015

def main():
    device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
    
    torch.manual_seed(777)  
    if device == 'cuda:0':
        torch.cuda.manual_seed_all(777)
    
    trainloader, len_src_vocab, len_tar_vocab = make_dataloader(batch_size, sequence_length)
    
    seq2seq_encoder = Seq2SeqEncoder(len_src_vocab, embed_size, num_hiddens, num_layers, dropout).to(device)
    seq2seq_decoder = Seq2SeqDecoder(len_tar_vocab, embed_size, num_hiddens, num_layers, dropout).to(device)
    model = Seq2Seq(seq2seq_encoder, seq2seq_decoder).to(device)
    
    criterion = My_Loss(device = device)
    optimizer = optim.Adam(model.parameters(), lr=learning_rate)
    
    train_model(model, device, len_tar_vocab, trainloader, optimizer, criterion, epochs)
    print("checksum", round(sum(p.double().sum().item() for p in model.parameters()), 6))

    
main()

"""The zoo's models: every torchvision architecture family (classification, segmentation, video, detection heads,
optical flow) and modules written here for the families torchvision lacks (RNNs, 1-D audio encoders, speech
encoders, decoder-only transformers with RMSNorm / rotary embeddings / grouped-query attention / SwiGLU at a dynamic
length, encoder-decoders, MLP-mixers, point-cloud nets, style transfer, U-Nets). Random weights, seeded.

ZOO maps a name to (family, builder); a builder returns (module in eval mode, example inputs as a tuple of tensors,
dynamic axes for torch.onnx.export or None)."""
import math

import torch
import torchvision
from torch import nn

F = torch.nn.functional


def image(n=1, size=224):
    return (torch.randn(n, 3, size, size),)


def tv(ctor, size=224, **kw):
    return lambda: (ctor(**kw).eval(), image(1, size), None)


class SegOut(nn.Module):
    """torchvision's segmentation models return a dict; the zoo compares its "out"."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(x)["out"]


class DetectorHead(nn.Module):
    """A detector's backbone (+ FPN) and head on raw tensors, before box decoding and NMS: random weights give tied
    scores there, so the zoo compares the raw head outputs (class logits and box regression)."""

    def __init__(self, det):
        super().__init__()
        self.backbone, self.head = det.backbone, det.head

    def forward(self, x):
        feats = list(self.backbone(x).values())
        out = self.head(feats)
        return out["cls_logits"], out["bbox_regression"]


class RpnHead(nn.Module):
    """Faster R-CNN's backbone + FPN and RPN head (objectness and box deltas per level, concatenated)."""

    def __init__(self, det):
        super().__init__()
        self.backbone, self.rpn_head = det.backbone, det.rpn.head

    def forward(self, x):
        feats = list(self.backbone(x).values())
        obj, deltas = self.rpn_head(feats)
        return torch.cat([o.flatten(1) for o in obj], 1), torch.cat([d.flatten(1) for d in deltas], 1)


class Raft(nn.Module):
    def __init__(self, updates=4):
        super().__init__()
        self.m = torchvision.models.optical_flow.raft_small()
        self.updates = updates

    def forward(self, a, b):
        return self.m(a, b, num_flow_updates=self.updates)[-1]


class RnnClassifier(nn.Module):
    def __init__(self, cell="lstm", layers=2, bidirectional=False, inp=64, hidden=128, classes=10):
        super().__init__()
        rnn = nn.LSTM if cell == "lstm" else nn.GRU
        self.rnn = rnn(inp, hidden, layers, bidirectional=bidirectional)
        self.fc = nn.Linear(hidden * (2 if bidirectional else 1), classes)

    def forward(self, x):  # x: [seq, batch, inp]
        y, _ = self.rnn(x)
        return self.fc(y)


class AudioEncoder(nn.Module):
    """wav2vec-style raw-audio encoder: seven Conv1d layers, GroupNorm after the first, GELU."""

    def __init__(self, dim=512):
        super().__init__()
        spec = [(10, 5)] + [(3, 2)] * 4 + [(2, 2)] * 2
        layers, c = [], 1
        for i, (k, s) in enumerate(spec):
            layers.append(nn.Conv1d(c, dim, k, s, bias=False))
            if i == 0:
                layers.append(nn.GroupNorm(dim, dim))
            layers.append(nn.GELU())
            c = dim
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


class SpeechEncoder(nn.Module):
    """Conformer-like: a conv front end over log-mel frames, then transformer encoder layers."""

    def __init__(self, mels=80, d=256, layers=4):
        super().__init__()
        self.front = nn.Sequential(nn.Conv1d(mels, d, 3, 2, 1), nn.GELU(), nn.Conv1d(d, d, 3, 2, 1), nn.GELU())
        layer = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, batch_first=True, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, layers)

    def forward(self, x):  # [batch, mels, frames]
        return self.enc(self.front(x).transpose(1, 2))


class RmsNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.w = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.w


def rotary(x, cos, sin):
    x1, x2 = x[..., ::2], x[..., 1::2]
    return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), -1).flatten(-2)


class DecoderBlock(nn.Module):
    def __init__(self, d, heads, kv_heads):
        super().__init__()
        self.h, self.kv, self.hd = heads, kv_heads, d // heads
        self.n1, self.n2 = RmsNorm(d), RmsNorm(d)
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, kv_heads * self.hd, bias=False)
        self.v = nn.Linear(d, kv_heads * self.hd, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.gate = nn.Linear(d, 3 * d, bias=False)
        self.up = nn.Linear(d, 3 * d, bias=False)
        self.down = nn.Linear(3 * d, d, bias=False)

    def forward(self, x, cos, sin, mask):
        b, t, d = x.shape
        h = self.n1(x)
        q = self.q(h).view(b, t, self.h, self.hd).transpose(1, 2)
        k = self.k(h).view(b, t, self.kv, self.hd).transpose(1, 2)
        v = self.v(h).view(b, t, self.kv, self.hd).transpose(1, 2)
        q, k = rotary(q, cos, sin), rotary(k, cos, sin)
        # Grouped-query attention: each K/V head serves h / kv query heads. (torch 1.13 exports repeat_interleave at a
        # dynamic length as a graph ONNX Runtime and ge both reject; an expand + reshape exports cleanly.)
        rep = self.h // self.kv
        k = k[:, :, None].expand(b, self.kv, rep, t, self.hd).reshape(b, self.h, t, self.hd)
        v = v[:, :, None].expand(b, self.kv, rep, t, self.hd).reshape(b, self.h, t, self.hd)
        att = (q @ k.transpose(-1, -2)) / math.sqrt(self.hd) + mask
        x = x + self.o((att.softmax(-1) @ v).transpose(1, 2).reshape(b, t, d))
        h = self.n2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Decoder(nn.Module):
    """A decoder-only transformer (Llama-like): RMSNorm, rotary embeddings, grouped-query attention, SwiGLU; the
    token count is dynamic."""

    def __init__(self, vocab=1000, d=256, heads=8, kv_heads=2, layers=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(DecoderBlock(d, heads, kv_heads) for _ in range(layers))
        self.norm = RmsNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        hd = d // heads
        self.register_buffer("inv", 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd)))

    def forward(self, ids):
        t = ids.shape[1]
        pos = torch.arange(t, dtype=torch.float32)
        ang = pos[:, None] * self.inv[None, :]
        cos, sin = ang.cos(), ang.sin()
        mask = torch.triu(torch.full((t, t), -1e9), 1)
        x = self.emb(ids)
        for blk in self.blocks:
            x = blk(x, cos, sin, mask)
        return self.head(self.norm(x))


class EncoderDecoder(nn.Module):
    def __init__(self, d=256):
        super().__init__()
        self.t = nn.Transformer(d, 4, 3, 3, 4 * d, dropout=0.0, batch_first=True)

    def forward(self, src, tgt):
        return self.t(src, tgt)


class MixerBlock(nn.Module):
    def __init__(self, tokens, d):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.tok = nn.Sequential(nn.Linear(tokens, 2 * tokens), nn.GELU(), nn.Linear(2 * tokens, tokens))
        self.ch = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.tok(self.n1(x).transpose(1, 2)).transpose(1, 2)
        return x + self.ch(self.n2(x))


class MlpMixer(nn.Module):
    def __init__(self, d=256, patch=16, layers=6):
        super().__init__()
        self.stem = nn.Conv2d(3, d, patch, patch)
        self.blocks = nn.Sequential(*[MixerBlock((224 // patch) ** 2, d) for _ in range(layers)])
        self.head = nn.Linear(d, 1000)

    def forward(self, x):
        x = self.stem(x).flatten(2).transpose(1, 2)
        return self.head(self.blocks(x).mean(1))


class PointNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU(), nn.Conv1d(64, 128, 1),
                               nn.BatchNorm1d(128), nn.ReLU(), nn.Conv1d(128, 1024, 1))
        self.head = nn.Sequential(nn.Linear(1024, 256), nn.ReLU(), nn.Linear(256, 40))

    def forward(self, x):  # [batch, 3, points]
        return self.head(self.f(x).max(2)[0])


class StyleTransfer(nn.Module):
    """Johnson et al.: reflection padding, instance norm, residual blocks, nearest upsampling."""

    def __init__(self):
        super().__init__()

        def conv(i, o, k, s=1):
            return nn.Sequential(nn.ReflectionPad2d(k // 2), nn.Conv2d(i, o, k, s), nn.InstanceNorm2d(o, affine=True),
                                 nn.ReLU())

        class Res(nn.Module):
            def __init__(self):
                super().__init__()
                self.b = nn.Sequential(conv(128, 128, 3), nn.ReflectionPad2d(1), nn.Conv2d(128, 128, 3),
                                       nn.InstanceNorm2d(128, affine=True))

            def forward(self, x):
                return x + self.b(x)

        self.net = nn.Sequential(conv(3, 32, 9), conv(32, 64, 3, 2), conv(64, 128, 3, 2), *[Res() for _ in range(5)],
                                 nn.Upsample(scale_factor=2, mode="nearest"), conv(128, 64, 3),
                                 nn.Upsample(scale_factor=2, mode="nearest"), conv(64, 32, 3), nn.ReflectionPad2d(4),
                                 nn.Conv2d(32, 3, 9))

    def forward(self, x):
        return self.net(x)


class UNet(nn.Module):
    def __init__(self, c=32, bilinear_last=True):
        super().__init__()

        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                 nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU())

        self.d1, self.d2, self.d3, self.mid = block(3, c), block(c, 2 * c), block(2 * c, 4 * c), block(4 * c, 8 * c)
        self.u3, self.u2 = nn.ConvTranspose2d(8 * c, 4 * c, 2, 2), nn.ConvTranspose2d(4 * c, 2 * c, 2, 2)
        self.c3, self.c2 = block(8 * c, 4 * c), block(4 * c, 2 * c)
        self.c1 = block(3 * c, c)
        self.out = nn.Conv2d(c, 2, 1)

    def forward(self, x):
        a = self.d1(x)
        b = self.d2(F.max_pool2d(a, 2))
        c = self.d3(F.max_pool2d(b, 2))
        m = self.mid(F.max_pool2d(c, 2))
        c = self.c3(torch.cat([self.u3(m), c], 1))
        b = self.c2(torch.cat([self.u2(c), b], 1))
        up = F.interpolate(b, scale_factor=2, mode="bilinear", align_corners=False)
        return self.out(self.c1(torch.cat([up, a], 1)))


def custom(ctor, *inputs, dynamic=None):
    return lambda: (ctor().eval(), tuple(inputs), dynamic)


def det(ctor, wrap, size, **kw):
    return lambda: (wrap(ctor(weights=None, weights_backbone=None, **kw)).eval(), image(1, size), None)


M = torchvision.models
ZOO = {
    # classification
    "alexnet": ("classification", tv(M.alexnet)),
    "vgg11_bn": ("classification", tv(M.vgg11_bn)),
    "resnet18": ("classification", tv(M.resnet18)),
    "resnet34": ("classification", tv(M.resnet34)),
    "resnet50": ("classification", tv(M.resnet50)),
    "resnext50_32x4d": ("classification", tv(M.resnext50_32x4d)),
    "wide_resnet50_2": ("classification", tv(M.wide_resnet50_2)),
    "densenet121": ("classification", tv(M.densenet121)),
    "squeezenet1_1": ("classification", tv(M.squeezenet1_1)),
    "googlenet": ("classification", tv(M.googlenet, aux_logits=False, init_weights=True)),
    "inception_v3": ("classification", tv(M.inception_v3, 299, aux_logits=False, init_weights=True)),
    "mobilenet_v2": ("classification", tv(M.mobilenet_v2)),
    "mobilenet_v3_small": ("classification", tv(M.mobilenet_v3_small)),
    "mobilenet_v3_large": ("classification", tv(M.mobilenet_v3_large)),
    "shufflenet_v2_x1_0": ("classification", tv(M.shufflenet_v2_x1_0)),
    "shufflenet_v2_x0_5": ("classification", tv(M.shufflenet_v2_x0_5)),
    "mnasnet1_0": ("classification", tv(M.mnasnet1_0)),
    "efficientnet_b0": ("classification", tv(M.efficientnet_b0)),
    "efficientnet_b1": ("classification", tv(M.efficientnet_b1)),
    "efficientnet_v2_s": ("classification", tv(M.efficientnet_v2_s)),
    "regnet_y_400mf": ("classification", tv(M.regnet_y_400mf)),
    "regnet_x_800mf": ("classification", tv(M.regnet_x_800mf)),
    "regnet_x_400mf": ("classification", tv(M.regnet_x_400mf)),
    "convnext_tiny": ("classification", tv(M.convnext_tiny)),
    "vit_b_32": ("classification", tv(M.vit_b_32)),
    "swin_t": ("classification", tv(M.swin_t)),
    "maxvit_t": ("classification", tv(M.maxvit_t)),
    # segmentation
    "fcn_resnet50": ("segmentation", lambda: (SegOut(M.segmentation.fcn_resnet50(weights_backbone=None, aux_loss=False)).eval(), image(1, 224), None)),
    "deeplabv3_mobilenet_v3_large": ("segmentation", lambda: (SegOut(M.segmentation.deeplabv3_mobilenet_v3_large(weights_backbone=None, aux_loss=False)).eval(), image(1, 224), None)),
    "lraspp_mobilenet_v3_large": ("segmentation", lambda: (SegOut(M.segmentation.lraspp_mobilenet_v3_large(weights_backbone=None)).eval(), image(1, 224), None)),
    # video
    "r3d_18": ("video", lambda: (M.video.r3d_18().eval(), (torch.randn(1, 3, 8, 112, 112),), None)),
    "mc3_18": ("video", lambda: (M.video.mc3_18().eval(), (torch.randn(1, 3, 8, 112, 112),), None)),
    "r2plus1d_18": ("video", lambda: (M.video.r2plus1d_18().eval(), (torch.randn(1, 3, 8, 112, 112),), None)),
    "s3d": ("video", lambda: (M.video.s3d().eval(), (torch.randn(1, 3, 16, 224, 224),), None)),
    # detection (raw head outputs)
    "retinanet_head": ("detection", det(M.detection.retinanet_resnet50_fpn, DetectorHead, 320)),
    "fcos_head": ("detection", det(M.detection.fcos_resnet50_fpn, DetectorHead, 320)),
    "fasterrcnn_rpn": ("detection", det(M.detection.fasterrcnn_mobilenet_v3_large_fpn, RpnHead, 320)),
    "ssdlite_head": ("detection", det(M.detection.ssdlite320_mobilenet_v3_large, DetectorHead, 320)),
    # optical flow
    "raft_small": ("optical flow", lambda: (Raft().eval(), (torch.randn(1, 3, 128, 128), torch.randn(1, 3, 128, 128)), None)),
    # families torchvision lacks
    "lstm_classifier": ("rnn", custom(lambda: RnnClassifier("lstm"), torch.randn(100, 1, 64))),
    "gru_tagger_bi": ("rnn", custom(lambda: RnnClassifier("gru", bidirectional=True), torch.randn(60, 1, 64))),
    "lstm_bi_batch8": ("rnn", custom(lambda: RnnClassifier("lstm", 1, True, 32, 64), torch.randn(40, 8, 32))),
    "audio_encoder": ("audio", custom(AudioEncoder, torch.randn(1, 1, 16000))),
    "speech_encoder": ("speech", custom(SpeechEncoder, torch.randn(1, 80, 400))),
    "decoder_rope_gqa": ("decoder", custom(Decoder, torch.randint(0, 1000, (1, 128)),
                                           dynamic={"ids": {1: "tokens"}})),
    "encoder_decoder": ("encoder-decoder", custom(EncoderDecoder, torch.randn(1, 64, 256), torch.randn(1, 32, 256))),
    "mlp_mixer": ("mlp-mixer", custom(MlpMixer, torch.randn(1, 3, 224, 224))),
    "pointnet": ("point cloud", custom(PointNet, torch.randn(8, 3, 1024))),
    "style_transfer": ("style transfer", custom(StyleTransfer, torch.randn(1, 3, 256, 256))),
    "unet": ("u-net", custom(UNet, torch.randn(1, 3, 128, 128))),
}

// The planner on synthetic networks shaped like the acceptance models (fp32, batch 1 unless noted): the plan must
// stay within 1.15x of the live-bytes lower bound.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "compiler/planning/memory_planner.h"

namespace ge::compiler {
namespace {

constexpr uint64_t kF32 = 4;

// Builds buffers from ops run one per step in creation order.
class NetBuilder {
 public:
  int Input(uint64_t elements) { return Add(elements, BufferKind::kGraphInput); }

  // One op reading |inputs| and writing |elements| floats; with |inplace> it may write over inputs[0].
  int Op(const std::vector<int>& inputs, uint64_t elements, bool inplace = false) {
    const int64_t step = ++step_;
    for (int in : inputs) buffers_[in].last_step = std::max(buffers_[in].last_step, step);
    int out = Add(elements, BufferKind::kFeatureMap);
    buffers_[out].first_step = buffers_[out].last_step = step;
    if (inplace) buffers_[out].inplace_source = buffers_[inputs[0]].id;
    return out;
  }

  // A final op writing a graph output.
  void Output(const std::vector<int>& inputs, uint64_t elements) {
    int out = Op(inputs, elements);
    buffers_[out].kind = BufferKind::kGraphOutput;
  }

  const std::vector<PlanBuffer>& buffers() const { return buffers_; }

 private:
  int Add(uint64_t elements, BufferKind kind) {
    PlanBuffer b;
    b.id = static_cast<int64_t>(buffers_.size());
    b.size_bytes = elements * kF32;
    b.kind = kind;
    b.first_step = b.last_step = step_ < 0 ? 0 : step_;
    buffers_.push_back(b);
    return static_cast<int>(buffers_.size()) - 1;
  }

  std::vector<PlanBuffer> buffers_;
  int64_t step_ = -1;
};

double PlanRatio(const char* name, const std::vector<PlanBuffer>& buffers) {
  StatusOr<MemoryPlan> plan = PlanMemory(buffers);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  if (!plan.ok()) return 0;
  Status verified = plan->Verify(buffers);
  EXPECT_TRUE(verified.ok()) << verified.ToString();
  const double ratio = static_cast<double>(plan->feature_map_bytes) / plan->feature_map_lower_bound_bytes;
  std::printf("%s: %zu buffers, lower bound %llu B, plan %llu B (%.4fx) by %s;", name, buffers.size(),
              static_cast<unsigned long long>(plan->feature_map_lower_bound_bytes),
              static_cast<unsigned long long>(plan->feature_map_bytes), ratio, plan->strategy.c_str());
  for (const StrategyResult& r : plan->tried) {
    std::printf(" %s %.4f", r.strategy.c_str(), static_cast<double>(r.feature_map_bytes) /
                                                    plan->feature_map_lower_bound_bytes);
  }
  std::printf("\n");
  return ratio;
}

// ResNet-50 v1 at 224x224: bottlenecks 1x1 -> 3x3 (stride here) -> 1x1, projection shortcut on each stage's first
// block, BN folded, ReLU fused, the residual Add+ReLU in place.
std::vector<PlanBuffer> ResNet50(uint64_t batch, bool unfused = false) {
  NetBuilder net;
  // Unfused: every conv is followed by a separate BatchNormalization and Relu that do not write in place.
  auto conv = [&](int in, uint64_t elements) {
    int y = net.Op({in}, elements);
    return unfused ? net.Op({net.Op({y}, elements)}, elements) : y;
  };
  int x = net.Input(batch * 3 * 224 * 224);
  x = net.Op({x}, batch * 64 * 112 * 112);
  x = net.Op({x}, batch * 64 * 56 * 56);
  struct Stage {
    int blocks;
    uint64_t mid, out, hw;
  };
  const Stage stages[] = {{3, 64, 256, 56}, {4, 128, 512, 28}, {6, 256, 1024, 14}, {3, 512, 2048, 7}};
  uint64_t in_hw = 56;
  for (const Stage& s : stages) {
    for (int i = 0; i < s.blocks; ++i) {
      int a = conv(x, batch * s.mid * in_hw * in_hw);
      int b = conv(a, batch * s.mid * s.hw * s.hw);
      int c = conv(b, batch * s.out * s.hw * s.hw);
      int shortcut = i == 0 ? conv(x, batch * s.out * s.hw * s.hw) : x;
      x = net.Op({c, shortcut}, batch * s.out * s.hw * s.hw, /*inplace=*/!unfused);
      if (unfused) x = net.Op({x}, batch * s.out * s.hw * s.hw);
      in_hw = s.hw;
    }
  }
  x = net.Op({x}, batch * 2048);
  net.Output({x}, batch * 1000);
  return net.buffers();
}

// MobileNetV2 at 224x224: inverted residuals (expand 1x1, depthwise 3x3, project 1x1, Add when shapes allow).
std::vector<PlanBuffer> MobileNetV2(uint64_t batch) {
  NetBuilder net;
  int x = net.Input(batch * 3 * 224 * 224);
  x = net.Op({x}, batch * 32 * 112 * 112);
  struct Block {
    uint64_t t, c;
    int n;
    uint64_t s;
  };
  const Block blocks[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2},  {6, 64, 4, 2},
                          {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  uint64_t cin = 32, hw = 112;
  for (const Block& blk : blocks) {
    for (int i = 0; i < blk.n; ++i) {
      const uint64_t stride = i == 0 ? blk.s : 1;
      const uint64_t out_hw = hw / stride;
      int e = blk.t == 1 ? x : net.Op({x}, batch * cin * blk.t * hw * hw);
      int d = net.Op({e}, batch * cin * blk.t * out_hw * out_hw);
      int p = net.Op({d}, batch * blk.c * out_hw * out_hw);
      x = (stride == 1 && cin == blk.c) ? net.Op({p, x}, batch * blk.c * out_hw * out_hw, /*inplace=*/true) : p;
      cin = blk.c;
      hw = out_hw;
    }
  }
  x = net.Op({x}, batch * 1280 * 7 * 7);
  x = net.Op({x}, batch * 1280);
  net.Output({x}, batch * 1000);
  return net.buffers();
}

// A BERT-base-style encoder: 12 layers, hidden 768, 12 heads, FFN 3072, sequence |seq|.
std::vector<PlanBuffer> BertEncoder(uint64_t batch, uint64_t seq, int layers) {
  const uint64_t hidden = 768, heads = 12, ffn = 3072;
  const uint64_t tokens = batch * seq;
  NetBuilder net;
  int ids = net.Input(tokens);
  int mask = net.Input(batch * seq);
  int x = net.Op({ids}, tokens * hidden);  // embedding gather + positions + LayerNorm
  int bias = net.Op({mask}, batch * seq);  // additive attention mask
  for (int l = 0; l < layers; ++l) {
    int q = net.Op({x}, tokens * hidden);
    int k = net.Op({x}, tokens * hidden);
    int v = net.Op({x}, tokens * hidden);
    int scores = net.Op({q, k}, batch * heads * seq * seq);
    scores = net.Op({scores}, batch * heads * seq * seq, /*inplace=*/true);        // scale
    scores = net.Op({scores, bias}, batch * heads * seq * seq, /*inplace=*/true);  // + mask
    int probs = net.Op({scores}, batch * heads * seq * seq, /*inplace=*/true);     // softmax
    int ctx = net.Op({probs, v}, tokens * hidden);
    int proj = net.Op({ctx}, tokens * hidden);
    int r1 = net.Op({proj, x}, tokens * hidden, /*inplace=*/true);
    int ln1 = net.Op({r1}, tokens * hidden);
    int f1 = net.Op({ln1}, tokens * ffn);
    int g = net.Op({f1}, tokens * ffn, /*inplace=*/true);  // GELU
    int f2 = net.Op({g}, tokens * hidden);
    int r2 = net.Op({f2, ln1}, tokens * hidden, /*inplace=*/true);
    x = net.Op({r2}, tokens * hidden);
  }
  net.Output({x}, tokens * hidden);
  return net.buffers();
}

// A U-Net: the encoder's activations live until the decoder level that concatenates them.
std::vector<PlanBuffer> UNet(uint64_t batch) {
  NetBuilder net;
  int x = net.Input(batch * 3 * 256 * 256);
  std::vector<int> skips;
  uint64_t c = 64, hw = 256;
  for (int level = 0; level < 4; ++level) {
    x = net.Op({x}, batch * c * hw * hw);
    x = net.Op({x}, batch * c * hw * hw);
    skips.push_back(x);
    hw /= 2;
    x = net.Op({x}, batch * c * hw * hw);
    c *= 2;
  }
  x = net.Op({x}, batch * c * hw * hw);
  for (int level = 3; level >= 0; --level) {
    c /= 2;
    hw *= 2;
    int up = net.Op({x}, batch * c * hw * hw);
    int cat = net.Op({up, skips[level]}, batch * 2 * c * hw * hw);
    x = net.Op({cat}, batch * c * hw * hw);
    x = net.Op({x}, batch * c * hw * hw);
  }
  net.Output({x}, batch * 2 * hw * hw);
  return net.buffers();
}

// Inception-style modules: four branches of different widths joined by a Concat.
std::vector<PlanBuffer> Inception(uint64_t batch) {
  NetBuilder net;
  int x = net.Input(batch * 3 * 299 * 299);
  x = net.Op({x}, batch * 192 * 35 * 35);
  uint64_t c = 192, hw = 35;
  for (int m = 0; m < 9; ++m) {
    if (m == 3 || m == 7) hw = hw / 2 + 1;
    const uint64_t w = c / 4 + 32 * (m % 3);
    int b1 = net.Op({x}, batch * w * hw * hw);
    int b2 = net.Op({net.Op({x}, batch * (w / 2) * hw * hw)}, batch * w * hw * hw);
    int b3a = net.Op({x}, batch * (w / 2) * hw * hw);
    int b3 = net.Op({net.Op({b3a}, batch * w * hw * hw)}, batch * w * hw * hw);
    int b4 = net.Op({net.Op({x}, batch * c * hw * hw)}, batch * (w / 2) * hw * hw);
    c = 3 * w + w / 2;
    x = net.Op({b1, b2, b3, b4}, batch * c * hw * hw);
  }
  net.Output({x}, batch * 1000);
  return net.buffers();
}

// Random residual networks: stages of shrinking spatial size, blocks of 2-4 ops of random width with a skip
// connection (sometimes projected), some element-wise ops in place.
std::vector<PlanBuffer> RandomResidualNet(uint64_t seed) {
  std::mt19937_64 rng(seed);
  NetBuilder net;
  uint64_t hw = 112, c = 32 + rng() % 64;
  int x = net.Input(3 * 224 * 224);
  x = net.Op({x}, c * hw * hw);
  for (int stage = 0; stage < 5; ++stage) {
    const int blocks = 1 + static_cast<int>(rng() % 6);
    for (int blk = 0; blk < blocks; ++blk) {
      const bool down = blk == 0 && stage > 0;
      const uint64_t out_c = down ? c * 2 : c;
      const uint64_t out_hw = down ? hw / 2 : hw;
      int y = x;
      const int ops = 2 + static_cast<int>(rng() % 3);
      for (int k = 0; k < ops; ++k) {
        const uint64_t width = k + 1 == ops ? out_c : c * (1 + rng() % 6) / 2;
        y = net.Op({y}, width * (k == 0 ? hw * hw : out_hw * out_hw));
        if (k + 1 < ops && rng() % 3 == 0) y = net.Op({y}, width * (k == 0 ? hw * hw : out_hw * out_hw), true);
      }
      int shortcut = down ? net.Op({x}, out_c * out_hw * out_hw) : x;
      x = net.Op({y, shortcut}, out_c * out_hw * out_hw, rng() % 2 == 0);
      c = out_c;
      hw = out_hw;
    }
  }
  net.Output({x}, 1000);
  return net.buffers();
}

TEST(MemoryPlannerPatterns, ResNet50WithinBound) {
  EXPECT_LE(PlanRatio("resnet50 b1", ResNet50(1)), 1.15);
  EXPECT_LE(PlanRatio("resnet50 b8", ResNet50(8)), 1.15);
  EXPECT_LE(PlanRatio("resnet50 unfused, no in-place", ResNet50(1, /*unfused=*/true)), 1.15);
}

TEST(MemoryPlannerPatterns, MobileNetV2WithinBound) {
  EXPECT_LE(PlanRatio("mobilenet_v2 b1", MobileNetV2(1)), 1.15);
  EXPECT_LE(PlanRatio("mobilenet_v2 b4", MobileNetV2(4)), 1.15);
}

TEST(MemoryPlannerPatterns, BertEncoderWithinBound) {
  EXPECT_LE(PlanRatio("bert s128", BertEncoder(1, 128, 12)), 1.15);
  EXPECT_LE(PlanRatio("bert b8 s384", BertEncoder(8, 384, 12)), 1.15);
  EXPECT_LE(PlanRatio("bert s32", BertEncoder(1, 32, 2)), 1.15);
}

TEST(MemoryPlannerPatterns, SkipConnectionsAndBranchesWithinBound) {
  EXPECT_LE(PlanRatio("unet b1", UNet(1)), 1.15);
  EXPECT_LE(PlanRatio("inception b1", Inception(1)), 1.15);
}

TEST(MemoryPlannerPatterns, RandomResidualNetsWithinBound) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const std::string name = "random residual " + std::to_string(seed);
    EXPECT_LE(PlanRatio(name.c_str(), RandomResidualNet(seed)), 1.15);
  }
}

}  // namespace
}  // namespace ge::compiler

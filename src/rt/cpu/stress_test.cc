// Concurrency stress: many producers, streams, events and models at once. Meant to be run under
// ThreadSanitizer too (GE_SANITIZE=thread).
#include <gtest/gtest.h>

#include "rt/cpu/test_util.h"

namespace ge::rt {
namespace {
using namespace testing;  // NOLINT
using namespace std::chrono_literals;

TEST(Stress, ManyProducersOneStream) {
  auto dev = MakeDevice();
  auto s = MakeStream(*dev);
  std::atomic<int> count{0};
  std::vector<std::thread> producers;
  for (int t = 0; t < 4; ++t) {
    producers.emplace_back([&] {
      for (int i = 0; i < 5000; ++i) {
        ASSERT_TRUE(s->Enqueue({CountTask, &count}).ok());
        if (i % 1000 == 0) {
          ASSERT_TRUE(s->Synchronize().ok());
        }
      }
    });
  }
  for (auto& p : producers) p.join();
  ASSERT_TRUE(s->Synchronize().ok());
  EXPECT_EQ(count.load(), 20000);
}

// A ring of streams passing a token through events: stream i waits for stream i-1 each round.
TEST(Stress, EventRingAcrossStreams) {
  auto dev = MakeDevice();
  constexpr int kStreams = 4, kRounds = 300;
  std::vector<std::unique_ptr<CpuStream>> streams;
  std::vector<std::unique_ptr<CpuEvent>> events;
  for (int i = 0; i < kStreams; ++i) {
    streams.push_back(MakeStream(*dev));
    events.push_back(std::make_unique<CpuEvent>());
  }
  // Plain int on purpose: every access is ordered by events, so TSan must see no race.
  struct Token {
    int value = 0;
    int expect_mod;
    int streams;
    bool ok = true;
  };
  std::vector<Token> tokens(kStreams);
  static int shared = 0;
  shared = 0;
  auto step = [](void* p, TaskContext&) -> Status {
    auto* t = static_cast<Token*>(p);
    if (shared % t->streams != t->expect_mod) t->ok = false;
    ++shared;
    return Status::Ok();
  };
  for (int i = 0; i < kStreams; ++i) tokens[i] = Token{0, i, kStreams, true};
  for (int r = 0; r < kRounds; ++r) {
    for (int i = 0; i < kStreams; ++i) {
      int prev = (i + kStreams - 1) % kStreams;
      if (r > 0 || i > 0) {
        ASSERT_TRUE(streams[i]->WaitEvent(*events[prev]).ok());
      }
      ASSERT_TRUE(streams[i]->Enqueue({step, &tokens[i]}).ok());
      ASSERT_TRUE(streams[i]->RecordEvent(*events[i]).ok());
    }
  }
  for (auto& s : streams) ASSERT_TRUE(s->Synchronize(30s).ok());
  EXPECT_EQ(shared, kStreams * kRounds);
  for (auto& t : tokens) EXPECT_TRUE(t.ok);
}

Status AddOne(void* args, TaskContext&) {
  ++*static_cast<long*>(args);
  return Status::Ok();
}

// Several multi-stream models, each launched repeatedly from its own stream while other threads enqueue work.
TEST(Stress, ModelsOnManyStreams) {
  auto dev = MakeDevice();
  constexpr int kModels = 3, kIters = 50;
  struct Slot {
    std::unique_ptr<CpuModel> model;
    std::unique_ptr<CpuStream> stream;
    long counters[3] = {0, 0, 0};
  };
  std::vector<Slot> slots(kModels);
  for (auto& sl : slots) {
    sl.model = CpuModel::Create("stress", 3, &dev->thread_pool()).value();
    sl.stream = MakeStream(*dev);
    CpuModel& m = *sl.model;
    int e01 = *m.AddEvent(), e12 = *m.AddEvent(), e20 = *m.AddEvent();
    for (int k = 0; k < 50; ++k) ASSERT_TRUE(m.AddKernel(0, AddOne, &sl.counters[0]).ok());
    ASSERT_TRUE(m.AddEventRecord(0, e01).ok());
    ASSERT_TRUE(m.AddEventWait(1, e01).ok());
    for (int k = 0; k < 50; ++k) ASSERT_TRUE(m.AddKernel(1, AddOne, &sl.counters[1]).ok());
    ASSERT_TRUE(m.AddEventRecord(1, e12).ok());
    ASSERT_TRUE(m.AddEventWait(2, e12).ok());
    for (int k = 0; k < 50; ++k) ASSERT_TRUE(m.AddKernel(2, AddOne, &sl.counters[2]).ok());
    ASSERT_TRUE(m.AddEventRecord(2, e20).ok());
    ASSERT_TRUE(m.AddEventWait(0, e20).ok());
    // Reads what streams 1 and 2 wrote this execution: ordered by the events.
    auto check = [](void* p, TaskContext&) -> Status {
      long* c = static_cast<long*>(p);
      return (c[0] == c[1] && c[1] == c[2]) ? Status::Ok() : Internal("streams out of step");
    };
    ASSERT_TRUE(m.AddKernel(0, check, sl.counters).ok());
    ASSERT_TRUE(m.Finalize().ok());
  }
  std::vector<std::thread> launchers;
  for (auto& sl : slots) {
    launchers.emplace_back([&sl] {
      for (int i = 0; i < kIters; ++i) ASSERT_TRUE(ModelExecute(*sl.model, *sl.stream).ok());
    });
  }
  for (auto& t : launchers) t.join();
  for (auto& sl : slots) {
    Status st = sl.stream->Synchronize(60s);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(sl.counters[2], 50L * kIters);
    EXPECT_EQ(sl.model->executions(), static_cast<uint64_t>(kIters));
  }
}

TEST(Stress, CreateAndDestroyUnderLoad) {
  auto dev = MakeDevice();
  std::atomic<int> count{0};
  for (int i = 0; i < 50; ++i) {
    auto a = MakeStream(*dev);
    auto b = MakeStream(*dev);
    CpuEvent ev;
    for (int k = 0; k < 20; ++k) ASSERT_TRUE(a->Enqueue({CountTask, &count}).ok());
    ASSERT_TRUE(a->RecordEvent(ev).ok());
    ASSERT_TRUE(b->WaitEvent(ev).ok());
    ASSERT_TRUE(b->Enqueue({CountTask, &count}).ok());
    ASSERT_TRUE(b->Synchronize(10s).ok());
    ASSERT_TRUE(a->Synchronize(10s).ok());
  }
  EXPECT_EQ(count.load(), 50 * 21);
}

}  // namespace
}  // namespace ge::rt

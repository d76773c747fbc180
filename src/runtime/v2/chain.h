// Chain: one value of an execute graph (GE's AsyncAnyValue): 8 bytes inline, or an owned pointer freed by its
// deleter when the chain is reset or destroyed. A consumer's input slot is a pointer to its producer's output
// chain, so values pass between runtime kernels without copies.
// Threading: a chain is written by its producer and read by its consumers after it ran (the executor orders them).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ge::runtime::v2 {

class Chain {
 public:
  using Deleter = void (*)(void*);
  Chain() = default;
  Chain(const Chain&) = delete;
  Chain& operator=(const Chain&) = delete;
  ~Chain() { Reset(); }

  // Inline values: trivially copyable, at most 8 bytes.
  template <typename T>
  void SetValue(T v) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(uint64_t), "inline values are small");
    Reset();
    std::memcpy(&bits_, &v, sizeof(T));
  }
  template <typename T>
  T GetValue() const {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(uint64_t), "inline values are small");
    T v;
    std::memcpy(&v, &bits_, sizeof(T));
    return v;
  }

  // Pointer values. With a deleter the chain owns |p|; without, it only refers to it.
  void SetPointer(void* p, Deleter deleter = nullptr) {
    Reset();
    ptr_ = p;
    deleter_ = deleter;
  }
  template <typename T>
  T* GetPointer() const { return static_cast<T*>(ptr_); }
  // Takes ownership of |p| (deleted with delete).
  template <typename T>
  void SetOwned(T* p) { SetPointer(p, [](void* q) { delete static_cast<T*>(q); }); }

  void Reset() {
    if (deleter_ != nullptr) deleter_(ptr_);
    deleter_ = nullptr;
    bits_ = 0;
  }

 private:
  union {
    void* ptr_;
    uint64_t bits_ = 0;
  };
  Deleter deleter_ = nullptr;
};

}  // namespace ge::runtime::v2

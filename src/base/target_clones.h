// GE_TARGET_CLONES(...): function multiversioning (one clone per listed target, picked at load time by an ifunc
// resolver), for the few reference kernels whose speed matters (GEMM). Off where it cannot work: non-GCC or
// non-Linux builds, and ThreadSanitizer builds, whose instrumented resolvers run before TSan initializes.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
#define GE_TARGET_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#else
#define GE_TARGET_CLONES(...)
#endif

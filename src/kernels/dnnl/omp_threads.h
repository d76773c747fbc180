// The OpenMP runtime calls the engine makes, declared here rather than through <omp.h> so that the library
// builds with any compiler: they resolve to the OpenMP runtime oneDNN itself uses (Debian's libdnnl: libgomp).
// All act on the calling thread's nthreads-var (per thread), which is what oneDNN's parallel regions read.
#pragma once

extern "C" {
int omp_get_max_threads(void);
void omp_set_num_threads(int num_threads);
int omp_get_dynamic(void);
void omp_set_dynamic(int dynamic_threads);
}

namespace ge::dnnl_kernels {

// oneDNN fixes a primitive's work split for omp_get_max_threads() at creation; executed with another thread count
// it can run many times slower. Sets the calling thread's OpenMP thread count to the kernel's for the scope.
class OmpThreadsScope {
 public:
  explicit OmpThreadsScope(int threads) : saved_(omp_get_max_threads()) {
    if (threads != saved_) omp_set_num_threads(threads);
  }
  ~OmpThreadsScope() {
    if (omp_get_max_threads() != saved_) omp_set_num_threads(saved_);
  }
  OmpThreadsScope(const OmpThreadsScope&) = delete;
  OmpThreadsScope& operator=(const OmpThreadsScope&) = delete;

 private:
  int saved_;
};

}  // namespace ge::dnnl_kernels

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

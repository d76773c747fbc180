// cpu_mask_probe: what CPUID tells this process, in its main thread and in a thread it starts, as one JSON line;
// the test of libge_cpu_mask.so (tests/cpu_mask/check_cpu_mask.py) runs it with and without scripts/as_cpu.sh.
// With --fault it installs a SIGSEGV handler (exit status 42) and reads address 0: a real fault must still reach
// the program's own handler under the mask. With --raise it raises SIGSEGV with the default action: the process must
// still die of it.
#include <cpuid.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  int avx, fma, avx2, avx512f, avx512bw, avx512_state;
} Features;

static void Read(Features* f) {
  unsigned a, b, c, d;
  __cpuid(1, a, b, c, d);
  f->avx = (c >> 28) & 1;
  f->fma = (c >> 12) & 1;
  __cpuid_count(7, 0, a, b, c, d);
  f->avx2 = (b >> 5) & 1;
  f->avx512f = (b >> 16) & 1;
  f->avx512bw = (b >> 30) & 1;
  __cpuid_count(0xD, 0, a, b, c, d);
  f->avx512_state = (a & 0xE0) == 0xE0;
}

static void* ReadInThread(void* out) {
  Read((Features*)out);
  return NULL;
}

static void Print(const char* name, const Features* f) {
  printf("\"%s\": {\"avx\": %d, \"fma\": %d, \"avx2\": %d, \"avx512f\": %d, \"avx512bw\": %d, \"avx512_state\": %d}",
         name, f->avx, f->fma, f->avx2, f->avx512f, f->avx512bw, f->avx512_state);
}

static void OnFault(int sig) {
  static const char kMessage[] = "cpu_mask_probe: own SIGSEGV handler ran\n";
  write(2, kMessage, sizeof kMessage - 1);
  _exit(42);
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "--fault") == 0) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = OnFault;
    sigaction(SIGSEGV, &action, NULL);
    return *(volatile int*)(argc > 100 ? argv : NULL);
  }
  if (argc > 1 && strcmp(argv[1], "--raise") == 0) {
    raise(SIGSEGV);
    return 0;
  }
  Features main_thread, other_thread;
  Read(&main_thread);
  pthread_t thread;
  if (pthread_create(&thread, NULL, ReadInThread, &other_thread) != 0) return 1;
  pthread_join(thread, NULL);
  printf("{");
  Print("main", &main_thread);
  printf(", ");
  Print("thread", &other_thread);
  printf("}\n");
  return 0;
}

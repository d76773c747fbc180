// libge_cpu_mask.so: makes a process and its threads see an older x86-64 CPU, so that ge, oneDNN and ONNX Runtime
// can be tested and measured as on a machine without AVX-512 (x86-64-v3) or without AVX (x86-64-v2), on the CPU we
// happen to have. scripts/as_cpu.sh is the way to use it.
//
// How: Linux's CPUID faulting (arch_prctl ARCH_SET_CPUID; "cpuid_fault" in /proc/cpuinfo). CPUID then raises SIGSEGV
// in this thread and every thread it creates; our handler executes the real CPUID and clears the feature bits above
// the level named by GE_CPU_MASK. XGETBV is not masked: code that checks the CPUID bit before the OS state (ours,
// oneDNN's, ONNX Runtime's) takes the masked answer. Not masked either: what ld.so chose before any of this ran
// (glibc's string functions; as_cpu.sh sets the glibc tunable that covers those).
//
// The library is loaded twice, as one file:
// - as an rtld-audit module (LD_AUDIT): ld.so calls la_version() before it loads the program's libraries, so CPU
//   detection in their static initializers (oneDNN's) already sees the masked CPU;
// - as a preload (LD_PRELOAD), which interposes sigaction() and signal() for SIGSEGV: a program that installs its own
//   SIGSEGV handler (Node.js does) gets it recorded instead, ours stays installed, handles CPUID faults and passes
//   every other fault to the program's handler. The two loads are separate copies with separate globals; the
//   preload's handler replaces the audit copy's when its constructor runs (before main).
//
// Without CPUID faulting (an old kernel, a hypervisor that hides it) the process exits with status 3 and says why,
// rather than run unmasked.
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

enum Level { kV2 = 2, kV3 = 3 };
static enum Level g_level = kV3;
// What the program believes is SIGSEGV's action (preload copy only; the audit copy never sees the program's calls).
static struct sigaction g_program_action;

typedef int (*SigactionFn)(int, const struct sigaction*, struct sigaction*);

static SigactionFn RealSigaction(void) {
  static SigactionFn real;
  if (real == NULL) real = (SigactionFn)dlsym(RTLD_NEXT, "sigaction");
  return real;
}

static long SetCpuidEnabled(int enabled) { return syscall(SYS_arch_prctl, ARCH_SET_CPUID, enabled); }

static void RealCpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4]) {
  __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(subleaf));
}

static uint32_t Bit(int n) { return 1u << n; }

// r = {eax, ebx, ecx, edx} of (leaf, subleaf), masked in place.
static void Mask(uint32_t leaf, uint32_t subleaf, uint32_t r[4]) {
  if (leaf == 1 && g_level == kV2) {
    r[2] &= ~(Bit(12) | Bit(28) | Bit(29));  // FMA, AVX, F16C
  } else if (leaf == 7 && subleaf == 0) {
    // EBX: AVX512F, DQ, IFMA, PF, ER, CD, BW, VL.
    r[1] &= ~(Bit(16) | Bit(17) | Bit(21) | Bit(26) | Bit(27) | Bit(28) | Bit(30) | Bit(31));
    // ECX: AVX512_VBMI, VBMI2, VNNI, BITALG, VPOPCNTDQ.
    r[2] &= ~(Bit(1) | Bit(6) | Bit(11) | Bit(12) | Bit(14));
    // EDX: 4VNNIW, 4FMAPS, VP2INTERSECT, AMX-BF16, AVX512_FP16, AMX-TILE, AMX-INT8.
    r[3] &= ~(Bit(2) | Bit(3) | Bit(8) | Bit(22) | Bit(23) | Bit(24) | Bit(25));
    if (g_level == kV2) r[1] &= ~(Bit(3) | Bit(5) | Bit(8));  // BMI1, AVX2, BMI2
  } else if (leaf == 7 && subleaf == 1) {
    // EAX: AVX-VNNI, AVX512_BF16, AMX-FP16, AVX-IFMA (Zen 2-class x86-64-v3 CPUs have none of them).
    r[0] &= ~(Bit(4) | Bit(5) | Bit(21) | Bit(23));
  } else if (leaf == 0xD && subleaf == 0) {
    r[0] &= ~(0xE0u | 0x60000u);        // XSAVE components: the AVX-512 and AMX states
    if (g_level == kV2) r[0] &= ~0x4u;  // and the AVX state
  }
}

static int IsCpuidFault(const siginfo_t* info, const unsigned char* ip) {
  return info->si_code == SI_KERNEL && ip[0] == 0x0F && ip[1] == 0xA2;
}

static void OnSegv(int sig, siginfo_t* info, void* context) {
  ucontext_t* uc = (ucontext_t*)context;
  greg_t* regs = uc->uc_mcontext.gregs;
  if (IsCpuidFault(info, (const unsigned char*)regs[REG_RIP])) {
    const uint32_t leaf = (uint32_t)regs[REG_RAX], subleaf = (uint32_t)regs[REG_RCX];
    uint32_t r[4];
    SetCpuidEnabled(1);
    RealCpuid(leaf, subleaf, r);
    SetCpuidEnabled(0);
    Mask(leaf, subleaf, r);
    regs[REG_RAX] = r[0];
    regs[REG_RBX] = r[1];
    regs[REG_RCX] = r[2];
    regs[REG_RDX] = r[3];
    regs[REG_RIP] += 2;
    return;
  }
  // A real fault: the program's handler if it set one, else the default action (the faulting instruction runs
  // again on return, faults again and the process dies with SIGSEGV, as it would have without us).
  const struct sigaction program = g_program_action;
  if ((program.sa_flags & SA_SIGINFO) && program.sa_sigaction != NULL) {
    program.sa_sigaction(sig, info, context);
  } else if (!(program.sa_flags & SA_SIGINFO) && program.sa_handler != SIG_DFL && program.sa_handler != SIG_IGN) {
    program.sa_handler(sig);
  } else {
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    RealSigaction()(SIGSEGV, &fallback, NULL);
    if (info->si_code <= 0) raise(sig);  // sent (kill, raise): nothing faults again on return, so send it again
  }
}

static void Fail(const char* what) {
  fprintf(stderr, "libge_cpu_mask: %s\n", what);
  _exit(3);
}

static void InstallHandler(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = OnSegv;
  action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  if (RealSigaction()(SIGSEGV, &action, NULL) != 0) Fail("cannot install the SIGSEGV handler");
}

static void ReadLevel(void) {
  const char* level = getenv("GE_CPU_MASK");
  if (level == NULL || strcmp(level, "x86-64-v3") == 0) {
    g_level = kV3;
  } else if (strcmp(level, "x86-64-v2") == 0) {
    g_level = kV2;
  } else {
    Fail("GE_CPU_MASK names no level it can mask to (x86-64-v2, x86-64-v3)");
  }
}

// rtld-audit entry point (LD_AUDIT): runs before the program's libraries are loaded.
unsigned la_version(unsigned version) {
  ReadLevel();
  InstallHandler();
  if (SetCpuidEnabled(0) != 0) Fail("arch_prctl(ARCH_SET_CPUID, 0) failed: this kernel or VM has no CPUID faulting");
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

// Preload (LD_PRELOAD) constructor. The interposed sigaction() below is bound from relocation on, so a handler that
// another library's constructor set before this ran is already in g_program_action.
__attribute__((constructor)) static void InstallInProgramNamespace(void) {
  ReadLevel();
  InstallHandler();
  if (SetCpuidEnabled(0) != 0) Fail("arch_prctl(ARCH_SET_CPUID, 0) failed: this kernel or VM has no CPUID faulting");
}

// The program's SIGSEGV handler is recorded, not installed (see the top of this file). Other signals pass through.
int sigaction(int sig, const struct sigaction* action, struct sigaction* previous) {
  if (sig != SIGSEGV) return RealSigaction()(sig, action, previous);
  if (previous != NULL) *previous = g_program_action;
  if (action != NULL) g_program_action = *action;
  return 0;
}

sighandler_t signal(int sig, sighandler_t handler) {
  struct sigaction action, previous;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (sigaction(sig, &action, &previous) != 0) return SIG_ERR;
  return (previous.sa_flags & SA_SIGINFO) ? (sighandler_t)previous.sa_sigaction : previous.sa_handler;
}

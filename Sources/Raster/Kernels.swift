import CKernels
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

/// The renderer's inner loop per CPU: the C kernels this machine can run, and the one to use.
///
/// `IMAGESTAGE_KERNEL` chooses: `swift` (the portable loop, the reference), `avx2` (gathers,
/// where the CPU has AVX2), or unset/`auto`: AVX2 on Intel CPUs only. Gathers measured 1.7×
/// the Swift blend on an Intel Xeon and slower on AMD EPYC (Zen), so AMD keeps Swift.
public enum BlendKernels {
  /// The AVX2 kernel, when this CPU has AVX2.
  public static var avx2: GroupKernel? {
    imagestage_cpu_has_avx2() != 0 ? GroupKernel(name: "avx2", groups: imagestage_groups_avx2) : nil
  }

  /// Every kernel this machine runs besides the Swift loop (for tests and benchmarks).
  public static var available: [GroupKernel] { [avx2].compactMap { $0 } }

  /// The kernel to use (`nil`: the Swift loop), from `IMAGESTAGE_KERNEL` and the CPU.
  public static func chosen() -> GroupKernel? {
    let setting = getenv("IMAGESTAGE_KERNEL").map { String(cString: $0) } ?? "auto"
    switch setting {
    case "swift": return nil
    case "avx2": return avx2
    default: return imagestage_cpu_is_intel() != 0 ? avx2 : nil
    }
  }
}

import CKernels
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

/// The renderer's inner loop per CPU: the C kernels this machine can run, and the one to use.
///
/// `IMAGESTAGE_KERNEL` chooses: `swift` (the portable loop, the reference), `avx2` (gathers,
/// where the CPU has AVX2), `prefetch` (SSE4.1 with software prefetches, for rows that read
/// the source out of order), or unset/`auto`: AVX2 on Intel CPUs, `prefetch` on other x86-64
/// ones. Gathers measured 1.7× the Swift blend on an Intel Xeon and slower on AMD EPYC (Zen);
/// prefetching took views whose rows cross the source (looking up, a little planet, a
/// 10800-wide source's level view) 15–35 % faster on the AMD and left the others alone (it is
/// not used there). Not measured on Intel, which keeps the gathers.
public enum BlendKernels {
  /// The AVX2 kernel, when this CPU has AVX2.
  public static var avx2: GroupKernel? {
    imagestage_cpu_has_avx2() != 0 ? GroupKernel(name: "avx2", groups: imagestage_groups_avx2) : nil
  }

  /// SSE4.1 lane loads with software prefetches, when this CPU has SSE4.1.
  public static var prefetch: GroupKernel? {
    imagestage_cpu_has_sse41() != 0
      ? GroupKernel(name: "prefetch", groups: imagestage_groups_prefetch, scatteredRowsOnly: true) : nil
  }

  /// Every kernel this machine runs besides the Swift loop (for tests and benchmarks).
  public static var available: [GroupKernel] { [avx2, prefetch].compactMap { $0 } }

  /// The kernel to use (`nil`: the Swift loop), from `IMAGESTAGE_KERNEL` and the CPU.
  public static func chosen() -> GroupKernel? {
    let setting = getenv("IMAGESTAGE_KERNEL").map { String(cString: $0) } ?? "auto"
    switch setting {
    case "swift": return nil
    case "avx2": return avx2
    case "prefetch": return prefetch
    default: return imagestage_cpu_is_intel() != 0 ? avx2 ?? prefetch : prefetch
    }
  }
}

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM for a command that writes outputs: they stop its child processes
/// (ffmpeg), remove its temporary outputs (`StagedOutput`, `FileIO.writeAtomically`'s
/// temporary file), say so on stderr and exit 128 + the signal (130 for Ctrl-C, 143 for
/// SIGTERM, as a shell reports them), at once, whatever the command's threads
/// are doing. The handler only writes a byte to a pipe; a watcher thread does the work,
/// under the same lock as `StagedOutput.commit`, so an output is either renamed into place
/// whole or removed, never half of each.
///
/// Installed by a command (`Interrupts.install()`), never by a library call: the app leaves
/// SIGINT and SIGTERM to SDL, which turns them into a quit event.
public enum Interrupts {
  /// What the watcher undoes: temporaries to remove (by id) and children to kill.
  struct State {
    var cleanups: [Int: @Sendable () -> String?] = [:]
    var children: Set<Int32> = []
    var nextID = 0
  }
  static let state = Mutex(State())
  /// Written by the signal handler, read by the watcher (-1 until installed).
  nonisolated(unsafe) static var wakeFD: Int32 = -1
  static let installed = Atomic<Bool>(false)

  /// The exit status of a run interrupted by `signal`: 128 + its number, as a shell
  /// reports it (130 for SIGINT, 143 for SIGTERM).
  public static func exitStatus(signal: Int32) -> Int32 { 128 + signal }

  /// Catches SIGINT and SIGTERM from now on (once; later calls do nothing).
  public static func install() {
    guard installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
      return
    }
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    wakeFD = fds[1]
    let readFD = fds[0]
    var thread = pthread_t()
    let box = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    box.pointee = readFD
    pthread_create(
      &thread, nil,
      { raw in
        #if canImport(Glibc)
          let fd = raw!.assumingMemoryBound(to: Int32.self).pointee
        #else
          let fd = raw.assumingMemoryBound(to: Int32.self).pointee
        #endif
        var signalNumber: UInt8 = 0
        while read(fd, &signalNumber, 1) < 0 && errno == EINTR {}
        Interrupts.stopEverything(signal: Int32(signalNumber))
      }, box)
    pthread_detach(thread)
    for number in [SIGINT, SIGTERM] {
      // One ignored when we started stays ignored (a shell's background job, nohup-like
      // wrappers): catching it would make the run stoppable where the user asked otherwise.
      let previous = signal(number, onSignal)
      if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
        signal(number, SIG_IGN)
      }
    }
    // A parent may have started us with them blocked (test runners do): unblock, or the
    // interrupt would wait until the run is over.
    var interrupts = sigset_t()
    sigemptyset(&interrupts)
    sigaddset(&interrupts, SIGINT)
    sigaddset(&interrupts, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &interrupts, nil)
  }

  static let onSignal: @convention(c) (Int32) -> Void = { number in
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(Interrupts.wakeFD, &byte, 1)
  }

  /// Whether `install()` ran (library code registers its temporaries only then).
  public static var isInstalled: Bool { installed.load(ordering: .acquiring) }

  /// Runs `cleanup` if the run is interrupted before `unregister(id)`; its result (e.g.
  /// "removed out.mp4.partial-42") goes into the message.
  public static func register(_ cleanup: @escaping @Sendable () -> String?) -> Int {
    state.withLock { s in
      s.nextID += 1
      s.cleanups[s.nextID] = cleanup
      return s.nextID
    }
  }

  public static func unregister(_ id: Int) { state.withLock { _ = $0.cleanups.removeValue(forKey: id) } }

  /// Runs `body` with the watcher held off, then unregisters cleanup `id`: an interrupt
  /// meanwhile waits until it returns (a rename into place happens whole, or not at all).
  public static func withoutInterruption<R: Sendable>(unregistering id: Int?, _ body: () -> R) -> R {
    state.withLock { s in
      let result = body()
      if let id { s.cleanups[id] = nil }
      return result
    }
  }

  /// A child to kill (SIGKILL) if the run is interrupted.
  static func adopt(_ pid: Int32) { state.withLock { _ = $0.children.insert(pid) } }
  static func release(_ pid: Int32) { state.withLock { _ = $0.children.remove(pid) } }

  /// The watcher's work: holds the lock to the end (`_exit`), so nothing is committed after.
  static func stopEverything(signal number: Int32) -> Never {
    state.withLock { s in
      // A child killed under a thread writing to it must not end us by SIGPIPE first.
      signal(SIGPIPE, SIG_IGN)
      for pid in s.children {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      }
      let removed = s.cleanups.keys.sorted().compactMap { s.cleanups[$0]!() }
      let said = removed.isEmpty ? "" : "; " + removed.joined(separator: "; ")
      Console.writeAll(2, Array("\(Console.programName): interrupted\(said)\n".utf8))
      _exit(exitStatus(signal: number))
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program run without a shell (found on PATH), fed through a pipe to its standard input:
/// ffmpeg encoding frames. Its stdout and stderr are ours. If the run is interrupted
/// (`Interrupts`), it is killed before the outputs it was writing are removed.
public final class ChildProcess: @unchecked Sendable {
  public let pid: pid_t
  /// The write end of the child's standard input (-1 once closed).
  public private(set) var input: Int32
  private var status: Int32?

  /// Starts `arguments[0]` with `arguments[1...]`. While a child is open, SIGPIPE is
  /// ignored: a child that dies makes our writes fail (and the command say so) instead of
  /// ending us with no message and its temporary output left behind.
  public init(_ arguments: [String]) throws(FileError) {
    precondition(!arguments.isEmpty, "a child needs a program")
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw .fromErrno("cannot make a pipe for", arguments[0]) }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #else
      var actions: posix_spawn_file_actions_t?
      var attributes: posix_spawnattr_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    // The child starts with no signal blocked and the interrupts at their defaults, whatever
    // our own state (SIGPIPE ignored, a test runner's blocked mask).
    var none = sigset_t(), defaults = sigset_t()
    sigemptyset(&none)
    sigemptyset(&defaults)
    for s in [SIGPIPE, SIGINT, SIGTERM] { sigaddset(&defaults, s) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var child: pid_t = 0
    signal(SIGPIPE, SIG_IGN)
    let spawned = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, environ)
    close(fds[0])
    guard spawned == 0 else {
      close(fds[1])
      throw FileError(operation: "cannot start", path: arguments[0], reason: String(cString: strerror(spawned)))
    }
    pid = child
    input = fds[1]
    Interrupts.adopt(child)
  }

  /// Closes the child's input (it sees the end of its stream).
  public func closeInput() {
    if input >= 0 { close(input) }
    input = -1
  }

  /// Closes its input and waits for it: its exit code, or 128 + the signal that ended it.
  public func wait() -> Int32 {
    if let status { return status }
    closeInput()
    var raw: Int32 = 0
    var result: pid_t
    repeat { result = waitpid(pid, &raw, 0) } while result < 0 && errno == EINTR
    Interrupts.release(pid)
    let code: Int32 = result < 0 ? 127 : ((raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F))
    status = code
    return code
  }

  /// Kills it (SIGKILL) unless it has already been waited for, and waits.
  public func stop() {
    if status == nil { kill(pid, SIGKILL) }
    _ = wait()
  }

  /// Whether `name` is an executable on PATH.
  public static func isOnPath(_ name: String) -> Bool {
    guard let path = getenv("PATH") else { return false }
    for dir in String(cString: path).split(separator: ":") where access("\(dir)/\(name)", X_OK) == 0 { return true }
    return false
  }

  deinit { stop() }
}

import Foundation

/// Runs the built executables the way a user does, from the test process.
enum Tool {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Directory holding the built products: beside the test bundle.
  static var productsDirectory: URL {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL.deletingLastPathComponent(),
      packageRoot.appendingPathComponent(".build/debug"),
    ]
    for dir in candidates where FileManager.default.fileExists(atPath: dir.appendingPathComponent("imagestage").path) {
      return dir
    }
    return candidates[2]
  }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutBytes = 0
    var stdoutData = Data()
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
  }

  /// Runs `name args…`, feeding `stdin`, and waits.
  static func run(_ name: String, _ args: [String], stdin: Data? = nil, environment: [String: String]? = nil) throws -> Result {
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent(name)
    process.arguments = args
    process.currentDirectoryURL = packageRoot
    if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    // Read both pipes concurrently so a full stderr cannot block the child.
    nonisolated(unsafe) var errData = Data()
    let errThread = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
    errThread.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errThread.isFinished { usleep(1000) }
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: outData.count, stdoutData: outData)
  }

  /// A fresh temporary directory.
  static func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imagestage-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// `imagestage board run` on a scenario file holding `json`.
  static func runBoard(json: String) throws -> Result {
    let file = try temporaryDirectory().appendingPathComponent("bad.json")
    try json.write(to: file, atomically: true, encoding: .utf8)
    return try run("imagestage", ["board", "run", file.path])
  }
}

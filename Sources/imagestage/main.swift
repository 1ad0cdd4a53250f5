import StageFiles

#if canImport(Glibc)
  import Glibc
#endif

/// `imagestage`: the command-line tool. Thin: parse arguments, call the adapters and cores,
/// print. Exit codes: 0 success, 1 failure while running, 2 bad input or usage.
let usage = """
  usage: imagestage board run FILE.json [--frames HZ] [--state FILE]
         imagestage help

  board run   run a scenario headless; JSON Lines on stdout (docs/scenario.md)
  """

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.prefix(2).joined(separator: " ")
switch command {
case "board run":
  exit(BoardCommand.run(Array(arguments.dropFirst(2))))
default:
  if arguments.first == "help" || arguments.first == "--help" || arguments.isEmpty {
    print(usage)
    exit(arguments.isEmpty ? 2 : 0)
  }
  Console.error("unknown command \"\(arguments.joined(separator: " "))\"\n\(usage)")
  exit(2)
}

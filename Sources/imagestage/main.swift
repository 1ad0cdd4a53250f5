import HostIO
import Scenes
import StageJSON

#if canImport(Glibc)
  import Glibc
#endif

/// `imagestage`: the command-line tool. Thin: parse arguments, call the adapters and cores,
/// print. Exit codes: 0 success, 1 failure while running, 2 bad input or usage. Commands,
/// options, help and completions all come from `Commands.all`.
Console.programName = "imagestage"
let arguments = Array(CommandLine.arguments.dropFirst())
let wantsHelp = arguments.contains("--help") || arguments.contains("-h")
if arguments.first == "--version" || arguments.first == "version" {
  print("imagestage \(imageStageVersion)")
  exit(0)
}
// The longest command the words name ("pano render" before "pano").
let command = Commands.all.first { Array(arguments.prefix($0.words.count)) == $0.words }
if wantsHelp {
  if let command {
    print(command.help)
  } else if let group = arguments.first, Completions.groups.contains(group) {
    print(
      Commands.usage.split(separator: "\n").filter { !$0.hasPrefix("  imagestage") || $0.hasPrefix("  imagestage \(group) ") }
        .joined(separator: "\n"))
  } else {
    print(Commands.usage)
  }
  exit(0)
}
let rest = Array(arguments.dropFirst(command?.words.count ?? 0))
switch command?.name {
case "board run":
  exit(BoardCommand.run(rest))
case "completions":
  guard rest.count == 1, let script = Completions.script(for: rest[0]) else {
    Console.error("completions needs one of bash, zsh, fish")
    exit(2)
  }
  print(script, terminator: "")
  exit(0)
case let name? where name.hasPrefix("pano "):
  exit(PanoCommand.run(String(name.dropFirst(5)), rest))
default:
  if arguments.first == "help" || arguments.isEmpty {
    print(Commands.usage)
    exit(arguments.isEmpty ? 2 : 0)
  }
  if let group = arguments.first, Completions.groups.contains(group), arguments.count > 1 {
    let known = Commands.all.filter { $0.words.count > 1 && $0.words[0] == group }.map { $0.words[1] }
    Console.error("unknown \(group) command \"\(arguments[1])\"; expected \(known.joined(separator: ", "))")
    exit(2)
  }
  Console.error("unknown command \"\(arguments.joined(separator: " "))\"\n\(Commands.usage)")
  exit(2)
}

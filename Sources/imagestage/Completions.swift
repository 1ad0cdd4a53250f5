/// Shell completion scripts generated from `Commands.all`, so they never miss an option.
enum Completions {
  static func script(for shell: String) -> String? {
    switch shell {
    case "bash": return bash
    case "zsh": return "autoload -U +X bashcompinit && bashcompinit\n" + bash
    case "fish": return fish
    default: return nil
    }
  }

  static let shells = ["bash", "zsh", "fish"]

  static var groups: [String] {
    var seen: [String] = []; for c in Commands.all where !seen.contains(c.words[0]) { seen.append(c.words[0]) }; return seen
  }

  static var bash: String {
    var cases: [String] = []
    for c in Commands.all {
      let opts = (c.options.map { "--\($0.name)" } + ["--help"]).joined(separator: " ")
      var valueCases: [String] = []
      for o in c.options where o.value != nil {
        let action =
          o.isFile
          ? "COMPREPLY=($(compgen -f -- \"$cur\"))"
          : "COMPREPLY=($(compgen -W \"\(o.choices.joined(separator: " "))\" -- \"$cur\"))"
        valueCases.append("        --\(o.name)\(o.name == "output" ? "|-o" : "")) \(action); return ;;")
      }
      let extra = c.name == "completions" ? "bash zsh fish " : ""
      cases.append(
        """
          "\(c.name)")
            case "$prev" in
        \(valueCases.joined(separator: "\n"))
            esac
            COMPREPLY=($(compgen -W "\(extra)\(opts)" -- "$cur")); [[ "$cur" != -* && -z "\(extra)" ]] && COMPREPLY+=($(compgen -f -- "$cur"))
            return ;;
        """)
    }
    // The second word: a group's commands, or what a one-word command takes (the shells).
    let subs = groups.map { g in
      let words = Commands.all.filter { $0.words[0] == g && $0.words.count > 1 }.map { $0.words[1] }
      let choices = words.isEmpty ? shells : words
      return "    \(g)) COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\")); return ;;"
    }
    return """
      # bash completion for imagestage (imagestage completions bash)
      _imagestage() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
        if [[ $COMP_CWORD -eq 1 ]]; then
          COMPREPLY=($(compgen -W "\(groups.joined(separator: " ")) --help --version" -- "$cur")); return
        fi
        if [[ $COMP_CWORD -eq 2 ]]; then
          case "${COMP_WORDS[1]}" in
      \(subs.joined(separator: "\n"))
          esac
        fi
        local cmd="${COMP_WORDS[1]} ${COMP_WORDS[2]}"
        [[ "${COMP_WORDS[1]}" == completions ]] && cmd=completions
        case "$cmd" in
      \(cases.joined(separator: "\n"))
        esac
      }
      complete -F _imagestage imagestage

      """
  }

  static var fish: String {
    var lines = ["# fish completion for imagestage (imagestage completions fish)", "complete -c imagestage -f"]
    lines.append("complete -c imagestage -n __fish_use_subcommand -a '\(groups.joined(separator: " "))'")
    for c in Commands.all {
      let condition: String
      if c.words.count > 1 {
        lines.append(
          "complete -c imagestage -n '__fish_seen_subcommand_from \(c.words[0])' -a \(c.words[1]) -d '\(c.summary.replacingOccurrences(of: "'", with: ""))'"
        )
        condition = "__fish_seen_subcommand_from \(c.words[0]); and __fish_seen_subcommand_from \(c.words[1])"
      } else {
        lines.append("complete -c imagestage -n '__fish_seen_subcommand_from completions' -a 'bash zsh fish'")
        condition = "__fish_seen_subcommand_from \(c.words[0])"
      }
      for o in c.options {
        var line = "complete -c imagestage -n '\(condition)' -l \(o.name) -d '\(o.help.replacingOccurrences(of: "'", with: ""))'"
        if o.value != nil {
          line += o.isFile ? " -r -F" : " -x" + (o.choices.isEmpty ? "" : " -a '\(o.choices.joined(separator: " "))'")
        }
        lines.append(line)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension String {
  func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
